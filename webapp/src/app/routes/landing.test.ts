import { describe, expect, it } from 'vitest';
import { decideNavigation, type NavigationInput } from '../guard/decideNavigation';
import { flattenRoutes, matchFlatRoute, effectiveRoles, effectiveTags } from './flatten';
import { firstPermittedPath, staffPathForCustomerLink } from './landing';
import { protectedRoutes } from './routes';
import type { Role } from '@/lib/roles';

// The default codes of the roles (api/src/permissions.rs `default_codes`).
const OPERATOR = [
  'declarations:management',
  'clearance:management',
  'customers:management',
  'customers:create',
  'customers:maintain',
];
const ADMIN = [
  ...OPERATOR,
  'staff:management',
  'roles:management',
  'ports:management',
  'audit:read',
];
const COMPLIANCE = ['audit:read', 'audit:export'];

const land = (role: Role | null, permissions: string[]) =>
  firstPermittedPath(protectedRoutes, { role, permissions });

const flat = flattenRoutes(protectedRoutes);

/** What the guard decides for a signed-in user opening `pathname`. */
function open(role: Role, permissions: string[], pathname: string, search = '') {
  const route = matchFlatRoute(flat, pathname);
  const input: NavigationInput = {
    pathname,
    search,
    route: {
      roles: route ? effectiveRoles(route.chain) : undefined,
      permissionTags: route ? effectiveTags(route.chain) : [],
    },
    token: 'tok',
    role,
    loaded: true,
    permissions,
    isLocked: false,
    landing: land(role, permissions),
  };
  return decideNavigation(input);
}

describe('firstPermittedPath', () => {
  it('lands customers and operators/admins on their welcome page', () => {
    expect(land('CUSTOMER', [])).toBe('/customer-welcome');
    expect(land('OPERATOR', OPERATOR)).toBe('/admin-welcome');
    expect(land('ADMIN', ADMIN)).toBe('/admin-welcome');
    expect(land('SUPER_ADMIN', [])).toBe('/admin-welcome');
  });

  it('lands the compliance reviewer on the event log, a page they may open', () => {
    expect(land('COMPLIANCE', COMPLIANCE)).toBe('/compliance/log');
  });

  it('lands a reviewer holding only the erasure right on the erasure page', () => {
    expect(land('COMPLIANCE', ['personal-data:erase'])).toBe('/platform-mgt/personal-data');
  });

  it('finds no page for a reviewer without any permission, or without a role', () => {
    expect(land('COMPLIANCE', [])).toBeNull();
    expect(land(null, ADMIN)).toBeNull();
  });

  it('never picks a page that needs a parameter or a hidden page', () => {
    for (const [role, codes] of [
      ['CUSTOMER', []],
      ['OPERATOR', OPERATOR],
      ['COMPLIANCE', COMPLIANCE],
    ] as const) {
      const path = land(role, [...codes]);
      expect(path).not.toMatch(/:/);
      expect(open(role, [...codes], path!)).toEqual({ kind: 'allow' });
    }
  });
});

describe('the guard with the landing page', () => {
  it('sends the reviewer from /admin-welcome to their first page, not to /403', () => {
    expect(open('COMPLIANCE', COMPLIANCE, '/admin-welcome')).toEqual({
      kind: 'redirect',
      to: '/compliance/log',
    });
  });

  it("refuses another role's home page with /403", () => {
    expect(open('CUSTOMER', [], '/admin-welcome')).toEqual({ kind: 'redirect', to: '/403' });
    expect(open('OPERATOR', OPERATOR, '/customer-welcome')).toEqual({
      kind: 'redirect',
      to: '/403',
    });
  });

  it('still refuses a page the reviewer may not open with /403', () => {
    expect(open('COMPLIANCE', COMPLIANCE, '/customs-clearance/export/export-b')).toEqual({
      kind: 'redirect',
      to: '/403',
    });
  });

  it('gives the erasure page one path for every role holding personal-data:erase', () => {
    const erase = '/platform-mgt/personal-data';
    expect(open('SUPER_ADMIN', ['personal-data:erase'], erase)).toEqual({ kind: 'allow' });
    expect(open('ADMIN', [...ADMIN, 'personal-data:erase'], erase)).toEqual({ kind: 'allow' });
    expect(open('COMPLIANCE', [...COMPLIANCE, 'personal-data:erase'], erase)).toEqual({
      kind: 'allow',
    });
    expect(open('ADMIN', ADMIN, erase)).toEqual({ kind: 'redirect', to: '/403' });
    expect(open('COMPLIANCE', COMPLIANCE, erase)).toEqual({ kind: 'redirect', to: '/403' });
  });

  it("sends staff opening a customer's declaration link to the staff page, query kept", () => {
    expect(
      open('OPERATOR', OPERATOR, '/customs-clearance-supply/detail-c/export', '?id=D1'),
    ).toEqual({ kind: 'redirect', to: '/customs-clearance/detail-c/export?id=D1' });
    expect(open('ADMIN', ADMIN, '/customs-clearance-supply/export/export-c')).toEqual({
      kind: 'redirect',
      to: '/customs-clearance/export/export-c',
    });
  });

  it('keeps a customer on their own links', () => {
    expect(open('CUSTOMER', [], '/customs-clearance-supply/export/export-c')).toEqual({
      kind: 'allow',
    });
  });
});

describe('staffPathForCustomerLink', () => {
  it('maps every customer area to the staff area of the same records', () => {
    expect(staffPathForCustomerLink('OPERATOR', '/customs-clearance-supply')).toBe(
      '/customs-clearance',
    );
    expect(staffPathForCustomerLink('OPERATOR', '/customs-clearance-supply/detail/import')).toBe(
      '/customs-clearance/detail/import',
    );
    expect(staffPathForCustomerLink('ADMIN', '/customs-clearance-supply/assist-to-create')).toBe(
      '/customers-profile/assist-to-create',
    );
    expect(staffPathForCustomerLink('ADMIN', '/customer-exception/detail')).toBe(
      '/clearance-exception/detail',
    );
  });

  it('leaves customers, unknown roles and other paths alone', () => {
    expect(staffPathForCustomerLink('CUSTOMER', '/customs-clearance-supply/detail/x')).toBeNull();
    expect(staffPathForCustomerLink(null, '/customs-clearance-supply/detail/x')).toBeNull();
    expect(staffPathForCustomerLink('ADMIN', '/customs-clearance-supplyx')).toBeNull();
    expect(staffPathForCustomerLink('ADMIN', '/customs-clearance/export')).toBeNull();
  });

  it('maps to paths the route table has', () => {
    for (const p of [
      '/customs-clearance-supply/export/export-b',
      '/customs-clearance-supply/detail-b/:shipmentType',
      '/customs-clearance-supply/assist-to-create',
      '/customer-exception/export',
      '/customer-exception/detail',
    ]) {
      const staff = staffPathForCustomerLink('OPERATOR', p)!;
      expect(flat.map((r) => r.fullPath)).toContain(staff);
    }
  });
});
