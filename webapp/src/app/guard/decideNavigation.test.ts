import { describe, expect, it } from 'vitest';
import { decideNavigation, loginRedirect, type NavigationInput } from './decideNavigation';

const base: NavigationInput = {
  pathname: '/customs-clearance/export/export-c',
  search: '',
  route: { roles: ['OPERATOR', 'ADMIN'], permissionTags: ['declarations:management'] },
  token: 'tok',
  tempToken: null,
  role: 'OPERATOR',
  loaded: true,
  permissions: ['declarations:management'],
  isLocked: false,
};

const decide = (over: Partial<NavigationInput>) => decideNavigation({ ...base, ...over });

describe('decideNavigation', () => {
  it('sends a signed-in user away from both login pages to /', () => {
    expect(decide({ pathname: '/login-c', route: { public: true } })).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decide({ pathname: '/login-b', route: { public: true } })).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('lets anyone without a token open a public page', () => {
    expect(
      decide({ token: null, role: null, pathname: '/login-c', route: { public: true } }),
    ).toEqual({
      kind: 'allow',
    });
    expect(decide({ token: null, role: null, pathname: '/403', route: { public: true } })).toEqual({
      kind: 'allow',
    });
  });

  it('treats /pass-reset as public only with a temporary token', () => {
    const route = { public: true, needsTempToken: true };
    expect(
      decide({ token: null, role: null, pathname: '/pass-reset', route, tempToken: 't' }),
    ).toEqual({
      kind: 'allow',
    });
    expect(decide({ token: null, role: null, pathname: '/pass-reset', route })).toEqual({
      kind: 'redirect',
      to: '/login-c?redirect=%2Fpass-reset',
    });
  });

  it('sends someone without a token and no known role to /login-c with the wanted path and query', () => {
    expect(decide({ token: null, role: null, search: '?status=1&page=2' })).toEqual({
      kind: 'redirect',
      to: `/login-c?redirect=${encodeURIComponent('/customs-clearance/export/export-c?status=1&page=2')}`,
    });
  });

  it('sends a customer without a token to /login-c', () => {
    expect(decide({ token: null, role: 'CUSTOMER', pathname: '/customer-welcome' })).toEqual({
      kind: 'redirect',
      to: '/login-c?redirect=%2Fcustomer-welcome',
    });
  });

  it('sends staff without a token to /login-b', () => {
    for (const role of ['OPERATOR', 'ADMIN', 'SUPER_ADMIN'] as const) {
      expect(decide({ token: null, role })).toEqual({
        kind: 'redirect',
        to: '/login-b?redirect=%2Fcustoms-clearance%2Fexport%2Fexport-c',
      });
    }
  });

  it('asks to load permissions and profile once per page load', () => {
    expect(decide({ loaded: false })).toEqual({ kind: 'load' });
    expect(decide({ role: null })).toEqual({ kind: 'load' });
  });

  it('sends a locked customer to the bind page, and lets them stay there', () => {
    const route = { roles: ['CUSTOMER'] as const };
    expect(
      decide({ role: 'CUSTOMER', isLocked: true, pathname: '/customer-welcome', route }),
    ).toEqual({
      kind: 'redirect',
      to: '/customers-center/bind',
    });
    expect(
      decide({ role: 'CUSTOMER', isLocked: true, pathname: '/customers-center/bind', route }),
    ).toEqual({
      kind: 'allow',
    });
  });

  it('does not apply the lock to staff', () => {
    expect(decide({ isLocked: true })).toEqual({ kind: 'allow' });
  });

  it('sends a role outside the route roles to /403', () => {
    expect(decide({ role: 'CUSTOMER' })).toEqual({ kind: 'redirect', to: '/403' });
    expect(decide({ route: { roles: ['CUSTOMER'] } })).toEqual({ kind: 'redirect', to: '/403' });
  });

  it('lets SUPER_ADMIN open what ADMIN may open', () => {
    expect(decide({ role: 'SUPER_ADMIN', route: { roles: ['ADMIN'] }, permissions: [] })).toEqual({
      kind: 'allow',
    });
  });

  it('sends a user lacking a permission tag to the fallback (/403)', () => {
    expect(decide({ permissions: [] })).toEqual({ kind: 'redirect', to: '/403' });
    expect(
      decide({
        pathname: '/platform-mgt/roles',
        route: { roles: ['ADMIN'], permissionTags: ['roles:management'] },
        role: 'ADMIN',
        permissions: ['staff:management'],
      }),
    ).toEqual({ kind: 'redirect', to: '/403' });
  });

  it('checks the tags of every level', () => {
    expect(decide({ route: { permissionTags: ['a', 'b'] }, permissions: ['a'] })).toEqual({
      kind: 'redirect',
      to: '/403',
    });
    expect(decide({ route: { permissionTags: ['a', 'b'] }, permissions: ['a', 'b'] })).toEqual({
      kind: 'allow',
    });
  });

  it('allows a permitted page', () => {
    expect(decide({})).toEqual({ kind: 'allow' });
    expect(decide({ route: {} })).toEqual({ kind: 'allow' });
  });
});

describe('loginRedirect', () => {
  it('keeps the original query with or without its question mark', () => {
    expect(loginRedirect('/login-c', '/a', 'x=1')).toBe('/login-c?redirect=%2Fa%3Fx%3D1');
    expect(loginRedirect('/login-c', '/a', '?x=1')).toBe('/login-c?redirect=%2Fa%3Fx%3D1');
    expect(loginRedirect('/login-c', '/a', '')).toBe('/login-c?redirect=%2Fa');
  });
});
