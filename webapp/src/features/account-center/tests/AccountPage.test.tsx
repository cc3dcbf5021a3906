// The personal centre shows the customs e-mail choice (off by default) and changes it.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import AccountPage from '../pages/AccountPage';

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

let enabled = false;
let puts: unknown[] = [];

beforeEach(() => {
  enabled = false;
  puts = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
      if (url.pathname === '/api/v1/customer/customs-email') {
        if (init?.method === 'PUT') {
          const b = JSON.parse(String(init.body)) as { enabled: boolean };
          puts.push(b);
          enabled = b.enabled;
          return ok({ id: 'c-1', version: 3, position: 9 });
        }
        return ok({ enabled, email: 'acme@example.com' });
      }
      if (url.pathname === '/api/v1/customer/profile')
        return ok({ customerId: 'c-1', username: 'acme', companyName: 'ACME', isLocked: false });
      return ok({ username: 'acme' });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('the personal centre', () => {
  it('shows the customs e-mail off by default and turns it on', async () => {
    renderWithProviders(
      <MemoryRouter>
        <AccountPage />
      </MemoryRouter>,
    );
    const toggle = await screen.findByRole('switch', { name: /海关放行或退回/ });
    await waitFor(() => expect(toggle).not.toBeDisabled());
    expect(toggle).not.toBeChecked();
    expect(screen.getByText(/acme@example\.com（登记的邮箱）/)).toBeInTheDocument();
    fireEvent.click(toggle);
    await waitFor(() => expect(puts).toEqual([{ enabled: true }]));
    await waitFor(() => expect(toggle).toBeChecked());
  });
});
