// The session loader after a sign-in: the spec's `isEasyClearIdLogin` flag from the session
// answer, and the bound Easy-clear ID under `upsId` (from GET /api/v1/ups-id, skipped when
// the customer signed in with that ID). The server is answered by a fetch stub.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/lib/queryClient';
import { sessionActions, useSessionStore } from '@/lib/session';
import { storage } from '@/lib/storage';
import { completeLogin, loadSession } from '@/shared/auth/sessionLoader';

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

const customerSession = (easyClearIdLogin: boolean) => ({
  userId: 'u-1',
  username: 'acme',
  displayName: 'ACME Trading',
  role: 'CUSTOMER',
  roles: ['CUSTOMER'],
  customerId: 'c-1',
  easyClearIdLogin,
});

const profile = {
  username: 'acme',
  companyName: 'ACME Trading',
  isLocked: false,
  upsId: '易清关-0042',
  customerId: 'c-1',
};

/** Answers `path -> data`; any other path fails the test. Answers the calls made. */
function serve(answers: Record<string, unknown>) {
  const fetchMock = vi.fn(async (url: string, _init?: RequestInit) => {
    const path = new URL(url, 'http://localhost').pathname;
    if (!(path in answers)) throw new Error(`unexpected request ${path}`);
    return envelope(answers[path]);
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    paths: () => fetchMock.mock.calls.map(([url]) => new URL(url, 'http://localhost').pathname),
    headersOf: (path: string) =>
      fetchMock.mock.calls
        .filter(([url]) => url.endsWith(path))
        .map(([, init]) => (init as RequestInit).headers as Record<string, string>),
  };
}

describe('session loader', () => {
  beforeEach(() => {
    useSessionStore.getState().clear();
    queryClient.clear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('flags a sign-in with the bound Easy-clear ID and skips the ups-id call', async () => {
    const server = serve({
      '/api/v1/session': customerSession(true),
      '/api/v1/customer/profile': profile,
    });
    await completeLogin('tok-1');
    expect(storage.get('isEasyClearIdLogin')).toBe('true');
    await loadSession();
    expect(server.paths()).not.toContain('/api/v1/ups-id');
    expect(server.paths()).toContain('/api/v1/customer/profile');
    expect(storage.get('upsId')).toBe('易清关-0042');
    expect(sessionActions.get().loaded).toBe(true);
  });

  it('signed in by username: clears the flag and stores the decoded ups-id answer', async () => {
    storage.set('isEasyClearIdLogin', 'true');
    storage.set('upsId', 'stale');
    const server = serve({
      '/api/v1/session': customerSession(false),
      '/api/v1/customer/profile': { ...profile, upsId: 'ignored-when-fetched' },
      '/api/v1/ups-id': '\\u6613\\u6e05\\u5173-0042 \\ud83d\\ude00 \\u005c',
    });
    await completeLogin('tok-2');
    expect(storage.get('isEasyClearIdLogin')).toBeNull();
    await loadSession();
    expect(server.paths()).toContain('/api/v1/ups-id');
    expect(server.headersOf('/api/v1/ups-id')[0]?.Authorization).toBe('Bearer tok-2');
    expect(storage.get('upsId')).toBe('易清关-0042 😀 \\');
  });

  it('removes upsId while the customer has nothing bound (ups-id answers null)', async () => {
    storage.set('upsId', 'stale');
    serve({
      '/api/v1/session': customerSession(false),
      '/api/v1/customer/profile': { ...profile, isLocked: true, upsId: null },
      '/api/v1/ups-id': null,
    });
    await completeLogin('tok-3');
    await loadSession();
    expect(storage.get('upsId')).toBeNull();
    expect(sessionActions.get().userinfo?.isLocked).toBe(true);
  });

  it('reads the flag from the session when the role is not stored yet', async () => {
    sessionActions.setToken('tok-4');
    const server = serve({
      '/api/v1/session': customerSession(true),
      '/api/v1/customer/profile': profile,
    });
    await loadSession();
    expect(storage.get('isEasyClearIdLogin')).toBe('true');
    expect(server.paths()).toEqual(['/api/v1/session', '/api/v1/customer/profile']);
  });

  it('on a reload keeps following the stored flag without asking the session again', async () => {
    serve({
      '/api/v1/session': customerSession(false),
      '/api/v1/customer/profile': profile,
      '/api/v1/ups-id': 'ACME-EC-0001',
    });
    await completeLogin('tok-5');
    await loadSession();
    expect(storage.get('upsId')).toBe('ACME-EC-0001');
    // The next page load: the role is stored, so only the profile and ups-id are read.
    useSessionStore.setState({ loaded: false });
    const server = serve({ '/api/v1/customer/profile': profile, '/api/v1/ups-id': null });
    await loadSession();
    expect(server.paths().sort()).toEqual(['/api/v1/customer/profile', '/api/v1/ups-id']);
    expect(storage.get('upsId')).toBeNull();
  });

  it('never flags or asks ups-id for staff', async () => {
    storage.set('isEasyClearIdLogin', 'true');
    const server = serve({
      '/api/v1/session': { ...customerSession(false), role: 'ADMIN', customerId: null },
      '/api/v1/user-permissions': [{ permissionCode: 'staff:management' }],
      '/api/v1/staff/profile': { staffId: 'S1', staffEmail: 'a@example.com', roleList: [] },
    });
    await completeLogin('tok-6');
    await loadSession();
    expect(storage.get('isEasyClearIdLogin')).toBeNull();
    expect(server.paths()).not.toContain('/api/v1/ups-id');
  });

  it('logout forgets the flag and the ID but keeps the preferences', () => {
    storage.set('isEasyClearIdLogin', 'true');
    storage.set('upsId', 'ACME-EC-0001');
    storage.set('lang', 'en');
    sessionActions.clear();
    expect(storage.get('isEasyClearIdLogin')).toBeNull();
    expect(storage.get('upsId')).toBeNull();
    expect(storage.get('lang')).toBe('en');
  });
});
