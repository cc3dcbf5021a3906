import { describe, expect, it } from 'vitest';
import { protectedRoutes } from '../routes/routes';
import type { AppRoute } from '@/shared/routing/types';
import {
  buildMenu,
  groupPathTo,
  openGroupsAfterSelect,
  routeVisible,
  topLevelOf,
  type MenuItem,
} from './menu';

const Page = () => null;

const routes: AppRoute[] = [
  { path: '/home', name: 'home', meta: { title: 'home' }, component: Page },
  { path: '/hidden', name: 'hidden', meta: { title: 'hidden', hidden: true }, component: Page },
  { path: '/admins', name: 'admins', meta: { title: 'admins', roles: ['ADMIN'] }, component: Page },
  {
    path: '/tagged',
    name: 'tagged',
    meta: { title: 'tagged', permissionTag: 'x:y' },
    component: Page,
  },
  {
    path: '/group',
    name: 'group',
    meta: { title: 'group' },
    children: [
      { path: 'a', name: 'a', meta: { title: 'a', permissionTag: 'a' }, component: Page },
      { path: 'b', name: 'b', meta: { title: 'b', hidden: true }, component: Page },
    ],
  },
  {
    path: '/always',
    name: 'always',
    meta: { title: 'always', alwaysShow: true },
    children: [
      { path: '', name: 'always-index', meta: { title: 'index' }, component: Page },
      { path: 'c', name: 'c', meta: { title: 'c', permissionTag: 'c' }, component: Page },
    ],
  },
  { path: 'https://example.com/help', name: 'help', meta: { title: 'help' } },
];

const keys = (items: MenuItem[]): unknown =>
  items.map((i) => (i.children ? { [i.key]: keys(i.children) } : i.key));

describe('routeVisible', () => {
  it('hides hidden routes, other roles and missing tags', () => {
    const ctx = { role: 'OPERATOR' as const, permissions: [] };
    expect(routeVisible(routes[0], ctx)).toBe(true);
    expect(routeVisible(routes[1], ctx)).toBe(false);
    expect(routeVisible(routes[2], ctx)).toBe(false);
    expect(routeVisible(routes[3], ctx)).toBe(false);
    expect(routeVisible(routes[3], { ...ctx, permissions: ['x:y'] })).toBe(true);
  });

  it('lets SUPER_ADMIN see ADMIN routes', () => {
    expect(routeVisible(routes[2], { role: 'SUPER_ADMIN', permissions: [] })).toBe(true);
  });
});

describe('buildMenu', () => {
  it('drops a group with no visible child', () => {
    const menu = buildMenu(routes, { role: 'OPERATOR', permissions: [] });
    expect(keys(menu)).toEqual(['/home', { '/always#': ['/always'] }, 'https://example.com/help']);
  });

  it('collapses a single-child group unless alwaysShow', () => {
    const menu = buildMenu(routes, { role: 'ADMIN', permissions: ['a', 'c', 'x:y'] });
    expect(keys(menu)).toEqual([
      '/home',
      '/admins',
      '/tagged',
      '/group/a',
      { '/always#': ['/always', '/always/c'] },
      'https://example.com/help',
    ]);
  });

  it('marks external links (http, https, mailto, tel)', () => {
    const menu = buildMenu(routes, { role: null, permissions: [] });
    expect(menu.find((i) => i.key.startsWith('https'))?.external).toBe(true);
    expect(menu.find((i) => i.key === '/home')?.external).toBe(false);
  });

  it('gives a customer only customer menus from the real route table', () => {
    const menu = buildMenu(protectedRoutes, { role: 'CUSTOMER', permissions: [] });
    expect(menu.map((i) => i.path)).toEqual([
      '/customer-welcome',
      '/customs-clearance-supply',
      '/customers-status-query',
      '/customer-exception',
      '/customers-center',
    ]);
    const exceptions = menu.find((i) => i.path === '/customer-exception')!;
    expect(exceptions.children!.map((c) => c.path)).toEqual([
      '/customer-exception/export',
      '/customer-exception/import',
      '/customer-exception/createException',
    ]);
    const center = menu.find((i) => i.path === '/customers-center')!;
    expect(center.children!.map((c) => c.path)).not.toContain('/customers-center/bind');
  });

  it('gives staff the menus their permission tags allow', () => {
    const none = buildMenu(protectedRoutes, { role: 'OPERATOR', permissions: [] });
    expect(none.map((i) => i.path)).toEqual([]);
    const some = buildMenu(protectedRoutes, {
      role: 'OPERATOR',
      permissions: ['declarations:management', 'ports:management'],
    });
    expect(keys(some)).toEqual([
      {
        '/customs-clearance#': [
          '/customs-clearance/all',
          {
            '/customs-clearance/export#': [
              '/customs-clearance/export/export-b',
              '/customs-clearance/export/export-c',
              '/customs-clearance/export/export-d',
            ],
          },
          {
            '/customs-clearance/import#': [
              '/customs-clearance/import/import-b',
              '/customs-clearance/import/import-c',
              '/customs-clearance/import/import-d',
            ],
          },
        ],
      },
      { '/platform-mgt#': ['/platform-mgt/port'] },
    ]);
  });

  it('lists the customer archive as the index of customer management', () => {
    const menu = buildMenu(protectedRoutes, {
      role: 'ADMIN',
      permissions: ['customers:management', 'declarations:management'],
    });
    const group = menu.find((i) => i.path === '/customers-profile')!;
    expect(group.children!.map((c) => c.path)).toEqual([
      '/customers-profile',
      '/customers-profile/ai-create',
      '/customers-profile/assist-to-create',
      '/customers-profile/mapping-list',
    ]);
  });

  it('shows the assisted creation to staff who may create declarations, and to customers', () => {
    const paths = (role: 'ADMIN' | 'CUSTOMER', permissions: string[]) =>
      JSON.stringify(buildMenu(protectedRoutes, { role, permissions }));
    expect(paths('ADMIN', ['customers:management'])).not.toContain('assist-to-create');
    expect(paths('CUSTOMER', [])).toContain('/customs-clearance-supply/assist-to-create');
  });
});

describe('menu groups', () => {
  const menu = buildMenu(protectedRoutes, { role: 'CUSTOMER', permissions: [] });

  it('finds the groups leading to an item and its top-level entry', () => {
    expect(groupPathTo(menu, '/customs-clearance-supply/import/import-c')).toEqual([
      '/customs-clearance-supply#',
      '/customs-clearance-supply/import#',
    ]);
    expect(topLevelOf(menu, '/customs-clearance-supply/import/import-c')).toBe(
      '/customs-clearance-supply#',
    );
  });

  it('opens the groups of a selected item', () => {
    expect(openGroupsAfterSelect(menu, [], '/customers-center/trade')).toEqual([
      '/customers-center#',
    ]);
  });

  it('closes the groups above when the status query is selected', () => {
    const opened = [
      '/customs-clearance-supply#',
      '/customs-clearance-supply/export#',
      '/customers-center#',
    ];
    expect(openGroupsAfterSelect(menu, opened, '/customers-status-query')).toEqual([
      '/customers-center#',
    ]);
  });
});
