// The layout every page of a feature uses: one h1 title (sized as h3: the shell already
// shows the app's name and the breadcrumbs), its actions on the right, the filters under it,
// then the content. Dialogs a page opens go in `children` too.
import type { ReactNode } from 'react';
import { Group, Stack, Title } from '@mantine/core';

export interface PageLayoutProps {
  title: ReactNode;
  /** Buttons of the page (new, export ...), right of the title. */
  actions?: ReactNode;
  /** The filter bar or search form, between the title and the content. */
  filters?: ReactNode;
  /** Narrow pages (forms) set a maximum width. */
  maw?: number;
  children?: ReactNode;
}

export function PageLayout({ title, actions, filters, maw, children }: PageLayoutProps) {
  return (
    <Stack gap="md" maw={maw}>
      <Group justify="space-between" align="center">
        <Title order={1} size="h3">
          {title}
        </Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {filters}
      {children}
    </Stack>
  );
}
