import { describe, expect, it } from 'vitest';
import { flattenRoutes, matchFlatRoute } from './flatten';
import { protectedRoutes, publicRoutes, statusRoutes } from './routes';

const flat = flattenRoutes([...publicRoutes, ...statusRoutes, ...protectedRoutes]);
const paths = flat.map((r) => r.fullPath);

describe('route table', () => {
  it('has every public route of spec 2.1', () => {
    for (const p of [
      '/login-c',
      '/login-b',
      '/auth-redirect',
      '/azure-redirect',
      '/account-transfer',
      '/pass-reset',
      '/pass-update',
      '/forget-password',
      '/environment',
      '/403',
      '/404',
      '/401',
      '/lasso/callback',
      '/lasso/test',
      '/temporarily',
      '/temporarily/detail',
      '/page-pdf',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('joins child paths to their parents', () => {
    for (const p of [
      '/customs-clearance/export/export-c',
      '/customs-clearance-supply/import/import-b',
      '/customs-clearance-supply/detail-c/:shipmentType',
      '/customs-clearance/detail/:shipmentType',
      '/platform-mgt/roles',
      '/platform-mgt/add',
      '/customers-center/account',
      '/customers-center/bind',
      '/clearance-exception/export',
      '/clearance-exception/createException',
      '/customers-profile/opera-record',
      '/customers-profile/detail-b/:shipmentType',
      '/customers-status-query',
      '/customer-welcome',
      '/admin-welcome',
    ]) {
      expect(paths).toContain(p);
    }
  });

  it('makes the customer archive the index of /customers-profile', () => {
    expect(matchFlatRoute(flat, '/customers-profile')?.name).toBe('customers-profile-list');
  });

  it('resolves detail pages with a shipment type', () => {
    const match = matchFlatRoute(flat, '/customs-clearance-supply/detail-c/1');
    expect(match?.meta).toMatchObject({ hidden: true, declarationClass: 'C', area: 'customer' });
  });

  it('gives both areas the exception lists, the hidden create form and detail', () => {
    for (const [base, area] of [
      ['/clearance-exception', 'staff'],
      ['/customer-exception', 'customer'],
    ] as const) {
      expect(matchFlatRoute(flat, `${base}/export`)?.meta).toMatchObject({
        area,
        exceptionDirection: 'export',
      });
      expect(matchFlatRoute(flat, `${base}/import`)?.meta).toMatchObject({
        area,
        exceptionDirection: 'import',
      });
      expect(matchFlatRoute(flat, `${base}/createException`)?.meta).toMatchObject({
        area,
        hidden: area === 'staff',
      });
      expect(matchFlatRoute(flat, `${base}/detail`)?.meta).toMatchObject({ area, hidden: true });
    }
    const roles = (p: string) => flat.find((r) => r.fullPath === p)?.chain[0].roles;
    expect(roles('/customer-exception/export')).toEqual(['CUSTOMER']);
    expect(roles('/clearance-exception/export')).toEqual(['OPERATOR', 'ADMIN']);
  });

  it('has unique names', () => {
    const names = flat.map((r) => r.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('tags staff menus as the spec says', () => {
    const tag = (p: string) => flat.find((r) => r.fullPath === p)?.meta.permissionTag;
    expect(tag('/customs-clearance')).toBe('declarations:management');
    expect(tag('/clearance-exception')).toBe('clearance:management');
    expect(tag('/customers-profile')).toBe('customers:management');
    expect(tag('/platform-mgt/employee')).toBe('staff:management');
    expect(tag('/platform-mgt/roles')).toBe('roles:management');
    expect(tag('/platform-mgt/port')).toBe('ports:management');
  });
});
