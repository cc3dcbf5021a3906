import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import type { StaffRecord } from '@/shared/platform/api/types';
import StaffListPage from '@/features/platform/pages/StaffListPage';

function staff(over: Partial<StaffRecord>): StaffRecord {
  return {
    id: 'id-1',
    username: 'olivia',
    staffId: 'S1001',
    staffEmail: 'olivia@clearway.example.com',
    staffName: 'Olivia Operator',
    roleCode: 'OPERATOR',
    roleList: [{ roleCode: 'OPERATOR', sortNo: 3 }],
    status: 'active',
    hasPassword: true,
    createTime: '2026-11-22T12:39:19+08:00',
    createBy: 'system',
    updateTime: '2026-11-22T12:40:00+08:00',
    updateBy: 'admin',
    version: 4,
    ...over,
  };
}

const rows = [
  staff({}),
  staff({
    id: 'id-2',
    username: 'admin',
    staffId: 'S0100',
    staffName: 'Adam Admin',
    roleList: [{ roleCode: 'ADMIN', sortNo: 2 }],
  }),
];

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: { url: URL; init?: RequestInit }[] = [];

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push({ url, init });
      if (url.pathname === '/api/v1/staff') return ok({ records: rows, total: 12 });
      if (url.pathname.endsWith('/roles')) return ok({ id: 'id-1', version: 5, position: 99 });
      return ok([]);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [], userinfo: null });
});

const ADMIN_CODES = [
  'staff:management',
  'staff:create',
  'staff:maintain',
  'staff:delete',
  'user-roles:grant:ADMIN',
  'user-roles:grant:OPERATOR',
];

function renderPage(permissions: string[], entry = '/platform-mgt/employee') {
  useSessionStore.setState({
    role: 'ADMIN',
    permissions,
    userinfo: { userName: 'admin', isLocked: false },
  });
  const router = createMemoryRouter(
    [{ path: '/platform-mgt/employee', element: <StaffListPage /> }],
    { initialEntries: [entry] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

vi.setConfig({ testTimeout: 20_000 });

describe('StaffListPage', () => {
  it('asks for the URL keyword with pages of 10 and shows the roles', async () => {
    renderPage(ADMIN_CODES, '/platform-mgt/employee?keyword=oli');
    await screen.findByText('Olivia Operator');
    const list = calls.find((c) => c.url.pathname === '/api/v1/staff')!.url;
    expect(list.searchParams.get('keyword')).toBe('oli');
    expect(list.searchParams.get('pageSize')).toBe('10');
    expect(screen.getByText('操作员')).toBeInTheDocument();
  });

  it('shows the actions the codes allow, none on the own row', async () => {
    renderPage(ADMIN_CODES);
    const row = (await screen.findByText('Olivia Operator')).closest('tr')!;
    expect(within(row).getByRole('button', { name: '维护' })).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: '分配角色' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /新增员工/ })).toBeInTheDocument();
    const own = screen.getByText('Adam Admin').closest('tr')!;
    expect(within(own).queryByRole('button')).toBeNull();
  });

  it('hides every button without the codes', async () => {
    renderPage(['staff:management']);
    const row = (await screen.findByText('Olivia Operator')).closest('tr')!;
    expect(within(row).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('button', { name: /新增员工/ })).toBeNull();
  });

  it('assigns only grantable roles and sends the version as If-Match', async () => {
    renderPage(ADMIN_CODES);
    const row = (await screen.findByText('Olivia Operator')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '分配角色' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('checkbox', { name: /SUPER_ADMIN/ })).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: /\(ADMIN\)/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: '保存' }));
    await waitFor(() => expect(calls.some((c) => c.url.pathname.endsWith('/roles'))).toBe(true));
    const sent = calls.find((c) => c.url.pathname === '/api/v1/staff/id-1/roles')!;
    expect(JSON.parse(String(sent.init?.body))).toEqual({ roles: ['OPERATOR', 'ADMIN'] });
    expect((sent.init?.headers as Record<string, string>)['If-Match']).toBe('4');
    // The list reloads at the command's position (read-your-writes).
    await waitFor(() =>
      expect(
        calls.some(
          (c) =>
            c.url.pathname === '/api/v1/staff' && c.url.searchParams.get('minPosition') === '99',
        ),
      ).toBe(true),
    );
  });
});
