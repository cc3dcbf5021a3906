import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import CustomerDetailPage from '@/features/customers/pages/CustomerDetailPage';
import type { CustomerDetail } from '@/shared/customers/model/types';

const detail: CustomerDetail = {
  customerId: 'c-1',
  username: 'acme',
  companyName: 'ACME Trading',
  city: 'Shanghai',
  portCode: 'PVG',
  slicCode: 'SHA01',
  postalCode: '200120',
  upsAccount: null,
  upsId: 'EC-1',
  accountNo: 'A-1',
  email: 'ops@acme.example',
  scc: null,
  declarationTypes: ['OC', 'IB'],
  status: 'active',
  isLocked: false,
  accountCount: 1,
  createBy: 'admin',
  createTime: '2026-11-22T12:39:19+08:00',
  updateBy: 'operator',
  updateTime: '2026-11-22T13:00:00+08:00',
  version: 4,
  accounts: [
    {
      accountId: 'a-1',
      username: 'acme',
      email: null,
      status: 'active',
      mustSetPassword: false,
      hasPassword: true,
      createTime: '2026-11-22T12:39:19+08:00',
    },
  ],
};

const envelope = (status: number, code: number, data: unknown, message = 'ok') =>
  new Response(JSON.stringify({ code, message, data }), {
    status,
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
      if (url.pathname === '/api/v1/customers/c-1') return envelope(200, 200, detail);
      if (url.pathname === '/api/v1/customers/nope') return envelope(404, 404, null, '客户不存在');
      if (url.pathname === '/api/v1/accounts/a-1/transfer')
        return envelope(200, 200, { id: 'a-1', version: 3, position: 9 });
      return envelope(200, 200, []);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [] });
});

function renderDetail(entry: string, permissions: string[]) {
  useSessionStore.setState({ role: 'OPERATOR', permissions });
  const router = createMemoryRouter(
    [{ path: '/customers-profile/customers-detail', element: <CustomerDetailPage /> }],
    { initialEntries: [entry] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

const OPERATOR = ['customers:management', 'customers:create', 'customers:maintain'];

vi.setConfig({ testTimeout: 20_000 });

describe('CustomerDetailPage', () => {
  it('shows the profile, the logins and links for each declaration type it files', async () => {
    renderDetail('/customers-profile/customers-detail?id=c-1', OPERATOR);
    expect(await screen.findByRole('heading', { name: 'ACME Trading' })).toBeInTheDocument();
    expect(screen.getByText('EC-1')).toBeInTheDocument();
    expect(screen.getAllByText('已绑定').length).toBeGreaterThan(0);
    expect(screen.getByRole('button', { name: '维护' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除' })).toBeNull();
    const filing = screen.getByRole('link', { name: '代客申报 出口 C类' });
    expect(filing).toHaveAttribute('href', '/customers-profile/detail-c/1?customerId=c-1');
    expect(screen.getByRole('link', { name: '代客申报 进口 B类' })).toHaveAttribute(
      'href',
      '/customers-profile/detail-b/0?customerId=c-1',
    );
    const lists = screen.getAllByRole('link', { name: '查看报关单' });
    expect(lists[0]).toHaveAttribute('href', '/customs-clearance/export/export-c?username=acme');
  });

  it('transfers a login to a new username after checking it', async () => {
    renderDetail('/customers-profile/customers-detail?id=c-1', OPERATOR);
    const table = await screen.findByRole('table', { name: '登录账户' });
    fireEvent.click(within(table).getByRole('button', { name: '操作 acme' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: '移交到新登录' }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByLabelText(/新登录用户名/);
    fireEvent.change(input, { target: { value: 'a b' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '移交到新登录' }));
    expect(await within(dialog).findByText(/用户名只能包含/)).toBeInTheDocument();
    expect(calls.some((c) => c.url.pathname.endsWith('/transfer'))).toBe(false);
    fireEvent.change(input, { target: { value: 'acme.new' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '移交到新登录' }));
    await waitFor(() => {
      const call = calls.find((c) => c.url.pathname === '/api/v1/accounts/a-1/transfer');
      expect(JSON.parse(String(call!.init!.body))).toEqual({ newUsername: 'acme.new' });
    });
  });

  it('says so when the customer cannot be loaded', async () => {
    renderDetail('/customers-profile/customers-detail?id=nope', OPERATOR);
    expect(await screen.findByRole('alert')).toHaveTextContent('客户不存在');
  });
});
