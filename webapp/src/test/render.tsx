import type { ReactElement, ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import '@/lib/i18n';

export function renderWithProviders(
  ui: ReactElement,
  wrapper?: (children: ReactNode) => ReactElement,
) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const content = wrapper ? wrapper(ui) : ui;
  return render(
    <MantineProvider>
      <QueryClientProvider client={client}>{content}</QueryClientProvider>
    </MantineProvider>,
  );
}
