import { screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import { routeObjects } from '../router';

const ok = (data: unknown) =>
  new Response(
    JSON.stringify({ code: 200, message: 'ok', data, refreshed: false, accessToken: null }),
    {
      headers: { 'Content-Type': 'application/json' },
    },
  );

function start(path: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

describe('RouteGuard in the router', () => {
  beforeEach(() => useSessionStore.getState().clear());
  afterEach(() => vi.unstubAllGlobals());

  it('sends a visitor without a token to the customer login with the wanted path and query', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ok({ status: 'ok' })),
    );
    const router = start('/customs-clearance-supply/export/export-c?status=1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-c'));
    expect(router.state.location.search).toBe(
      `?redirect=${encodeURIComponent('/customs-clearance-supply/export/export-c?status=1')}`,
    );
    expect(await screen.findByRole('button', { name: '登录' })).toBeInTheDocument();
  });

  it('sends / to the customer landing page for a customer', async () => {
    useSessionStore.setState({ token: 't', role: 'CUSTOMER' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) =>
        url.includes('/customer/profile')
          ? ok({ username: 'acme', companyName: 'ACME', isLocked: false })
          : ok({ byStatus: [], perDay: [] }),
      ),
    );
    const router = start('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/customer-welcome'));
  });

  it('loads a customer profile and sends a locked customer to the bind page', async () => {
    useSessionStore.setState({ token: 't', role: 'CUSTOMER' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ok({ username: 'acme', companyName: 'ACME', isLocked: true })),
    );
    const router = start('/customer-welcome');
    await waitFor(() => expect(router.state.location.pathname).toBe('/customers-center/bind'));
  });

  it('sends a customer opening a staff page to /403', async () => {
    useSessionStore.setState({ token: 't', role: 'CUSTOMER' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => ok({ username: 'acme', companyName: 'ACME', isLocked: false })),
    );
    const router = start('/platform-mgt/roles');
    await waitFor(() => expect(router.state.location.pathname).toBe('/403'));
  });

  it('fetches staff permissions and refuses a page whose tag is missing', async () => {
    useSessionStore.setState({ token: 't', role: 'OPERATOR' });
    const fetch = vi.fn(async (url: string) =>
      url.includes('user-permissions')
        ? ok([{ permissionCode: 'declarations:management', type: 'BUTTON' }])
        : ok({ staffId: 'S1', staffEmail: 'o@x', roleList: [{ roleCode: 'OPERATOR', sortNo: 1 }] }),
    );
    vi.stubGlobal('fetch', fetch);
    const router = start('/platform-mgt/roles');
    await waitFor(() => expect(router.state.location.pathname).toBe('/403'));
    expect(fetch.mock.calls.some(([u]) => String(u).includes('/api/v1/user-permissions'))).toBe(
      true,
    );
    expect(useSessionStore.getState().permissions).toEqual(['declarations:management']);
  });

  it('on a failed load clears the token and goes to the customer login with redirect', async () => {
    useSessionStore.setState({ token: 't', role: 'OPERATOR' });
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ code: 500, message: 'down', data: null }), {
            status: 500,
            headers: { 'Content-Type': 'application/json' },
          }),
      ),
    );
    const router = start('/admin-welcome');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-c'));
    expect(router.state.location.search).toBe('?redirect=%2Fadmin-welcome');
    expect(useSessionStore.getState().token).toBeNull();
  });
});
