// The sign-in flows in the real router and guard, with the server answered by a fetch stub.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { routeObjects } from '@/app/router';
import i18n from '@/lib/i18n';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import { flowStorage } from '@/shared/auth/flowStorage';

const envelope = (code: number, data: unknown, message = 'ok', status = 200) =>
  new Response(JSON.stringify({ code, message, data, refreshed: false, accessToken: null }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

function start(path: string) {
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  renderWithProviders(<RouterProvider router={router} />);
  return router;
}

type Handler = (url: string, init?: RequestInit) => Response | undefined;

function serve(handler: Handler) {
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    return handler(url, init) ?? envelope(200, { status: 'ok', mode: 'production' });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

async function signIn(username: string, password: string) {
  fireEvent.change(await screen.findByLabelText(/^Username/), { target: { value: username } });
  fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('sign-in flows', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    useSessionStore.getState().clear();
    sessionStorage.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('sends a new user (10002) to /pass-reset, keeping the token out of the URL', async () => {
    serve((url) =>
      url.includes('/auth/login')
        ? envelope(10002, { tempToken: 'tok-123' }, 'new user')
        : undefined,
    );
    const router = start('/login-c');
    await signIn('newbie', 'Initial-Pass-2026');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pass-reset'));
    expect(router.state.location.search).toBe('');
    expect(
      await screen.findByText('First sign-in: please set a password for newbie.'),
    ).toBeVisible();
    expect(flowStorage.tempFlow('setup')?.tempToken).toBe('tok-123');
  });

  it('shows until when a locked account (10006) is locked', async () => {
    serve((url) =>
      url.includes('/auth/login')
        ? envelope(10006, { lockedUntil: '2030-05-06T07:08:09Z' }, 'locked')
        : undefined,
    );
    const router = start('/login-c');
    await signIn('acme', 'Right-Pass-2026');
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toMatch(/locked until 2030-05-06/);
    expect(router.state.location.pathname).toBe('/login-c');
  });

  it('counts down a rate-limited sign-in (429) and blocks the button meanwhile', async () => {
    serve((url) =>
      url.includes('/auth/login')
        ? envelope(207, { retryAfter: 30 }, 'too many requests', 429)
        : undefined,
    );
    start('/login-c');
    await signIn('acme', 'whatever-1A');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many sign-in attempts. Try again in 30 s.',
    );
    expect(screen.getByRole('button', { name: 'Log in' })).toBeDisabled();
  });

  it("shows the server's message for a refused sign-in (10000)", async () => {
    serve((url) =>
      url.includes('/auth/login') ? envelope(10000, null, 'wrong username or password') : undefined,
    );
    start('/login-c');
    await signIn('acme', 'wrong-Pass-1');
    expect((await screen.findByRole('alert')).textContent).toBe('wrong username or password');
  });

  it('opens the mailed reset link without a session', async () => {
    serve(() => undefined);
    const withLink = start('/pass-reset?token=mailed');
    expect(await screen.findByText('Choose a new password, then sign in with it.')).toBeVisible();
    expect(withLink.state.location.pathname).toBe('/pass-reset');
  });

  it('sends /pass-reset without any token to the login page', async () => {
    serve(() => undefined);
    const router = start('/pass-reset');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login-c'));
  });

  it('checks the password rule before sending a reset, then shows a token error from the server', async () => {
    const fetchMock = serve((url) =>
      url.includes('/password/reset')
        ? envelope(400, [{ field: 'token', message: 'the token has expired' }], 'bad request', 400)
        : undefined,
    );
    start('/pass-reset?token=mailed');
    fireEvent.change(await screen.findByLabelText(/^New password/), { target: { value: 'short' } });
    fireEvent.change(screen.getByLabelText(/^Confirm new password/), {
      target: { value: 'short' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect((await screen.findAllByText(/Length 10-26/)).length).toBeGreaterThan(0);
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/password/reset'))).toBe(false);

    fireEvent.change(screen.getByLabelText(/^New password/), {
      target: { value: 'Brand-New-Pass-42' },
    });
    fireEvent.change(screen.getByLabelText(/^Confirm new password/), {
      target: { value: 'Brand-New-Pass-42' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect((await screen.findByRole('alert')).textContent).toBe('the token has expired');
  });

  it('refuses a single sign-on return whose state this tab did not start, without calling the server', async () => {
    const fetchMock = serve(() => undefined);
    flowStorage.setSsoFlow({ state: 'mine', codeVerifier: 'v'.repeat(43) });
    start('/auth-redirect?code=c&state=someone-else');
    expect(await screen.findByText('Corporate sign-in did not complete')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Try again' })).toHaveAttribute('href', '/login-b');
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/sso/callback'))).toBe(false);
  });

  it('shows an unknown staff member what to do', async () => {
    serve((url) =>
      url.includes('/sso/callback')
        ? envelope(10000, { reason: 'UNKNOWN_STAFF' }, 'no staff account matches this sign-in')
        : undefined,
    );
    flowStorage.setSsoFlow({ state: 'st', codeVerifier: 'v'.repeat(43) });
    start('/auth-redirect?code=c&state=st');
    expect(await screen.findByText('no staff account matches this sign-in')).toBeVisible();
    expect(screen.getByText(/Ask an administrator to create your staff account/)).toBeVisible();
    expect(flowStorage.ssoFlow()).toBeNull();
  });
});
