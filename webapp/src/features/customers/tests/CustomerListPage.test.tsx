import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import CustomerListPage from '@/features/customers/pages/CustomerListPage';
import type { CustomerSummary } from '@/shared/customers/model/types';

const acme: CustomerSummary = {
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
  email: null,
  scc: null,
  declarationTypes: ['OC'],
  status: 'active',
  isLocked: true,
  accountCount: 1,
  createBy: 'admin',
  createTime: '2026-11-22T12:39:19+08:00',
  updateBy: null,
  updateTime: '2026-11-22T12:39:19+08:00',
  version: 1,
};

const envelope = (status: number, code: number, message: string, data: unknown) =>
  new Response(JSON.stringify({ code, message, data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: { url: URL; init?: RequestInit }[] = [];
let answer: (url: URL, init?: RequestInit) => Response | undefined = () => undefined;

beforeEach(() => {
  calls = [];
  answer = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push({ url, init });
      const special = answer(url, init);
      if (special) return special;
      if (url.pathname === '/api/v1/customers') {
        return envelope(200, 200, 'ok', { records: [acme], total: 11 });
      }
      return envelope(200, 200, 'ok', []);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [] });
});

function renderList(permissions: string[], entry = '/customers-profile') {
  useSessionStore.setState({ role: 'OPERATOR', permissions });
  const router = createMemoryRouter(
    [{ path: '/customers-profile', element: <CustomerListPage /> }],
    { initialEntries: [entry] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

const OPERATOR = ['customers:management', 'customers:create', 'customers:maintain'];
const ADMIN = [...OPERATOR, 'customers:delete'];

vi.setConfig({ testTimeout: 20_000 });

describe('CustomerListPage', () => {
  it('asks for the first page of 10 with the URL filters and shows the rows', async () => {
    renderList(OPERATOR, '/customers-profile?keyword=acme&status=active');
    expect(await screen.findByRole('link', { name: 'acme' })).toBeInTheDocument();
    const list = calls.filter((c) => c.url.pathname === '/api/v1/customers');
    expect(Object.fromEntries(list[0].url.searchParams)).toEqual({
      pageNo: '1',
      pageSize: '10',
      keyword: 'acme',
      status: 'active',
    });
    const table = screen.getByRole('table');
    expect(within(table).getByText('未绑定')).toBeInTheDocument();
    expect(within(table).getByText('正常')).toBeInTheDocument();
    expect(screen.getByText('共 11 条')).toBeInTheDocument();
  });

  it('shows the delete button only with customers:delete', async () => {
    const { unmount } = renderList(OPERATOR);
    await screen.findByRole('link', { name: 'acme' });
    expect(screen.getByRole('button', { name: '维护 acme' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '删除 acme' })).toBeNull();
    unmount();
    renderList(ADMIN);
    expect(await screen.findByRole('button', { name: '删除 acme' })).toBeInTheDocument();
  });

  it('hides new and maintain without their codes', async () => {
    renderList(['customers:management']);
    await screen.findByRole('link', { name: 'acme' });
    expect(screen.queryByRole('button', { name: '新建客户' })).toBeNull();
    expect(screen.queryByRole('button', { name: '维护 acme' })).toBeNull();
    expect(screen.queryByRole('button', { name: '停用 acme' })).toBeNull();
  });

  it('checks the form before sending, then shows the initial password once', async () => {
    answer = (url, init) =>
      url.pathname === '/api/v1/customers' && init?.method === 'POST'
        ? envelope(200, 200, 'ok', {
            id: 'c-2',
            version: 1,
            position: 42,
            account: { id: 'a-2', username: 'globex2', initialPassword: 'Xy7-generated-Pw' },
          })
        : undefined;
    renderList(OPERATOR);
    fireEvent.click(await screen.findByRole('button', { name: '新建客户' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/邮政编码/), { target: { value: '123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '创建' }));
    expect(await within(dialog).findByText('公司名称不能为空')).toBeInTheDocument();
    expect(within(dialog).getByText('用户名不能为空')).toBeInTheDocument();
    expect(within(dialog).getByText('邮政编码应为 6 位数字')).toBeInTheDocument();
    expect(calls.some((c) => c.init?.method === 'POST')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText(/^用户名/), { target: { value: 'globex2' } });
    fireEvent.change(within(dialog).getByLabelText(/^公司名称/), {
      target: { value: 'Globex' },
    });
    fireEvent.change(within(dialog).getByLabelText(/邮政编码/), { target: { value: '200120' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '创建' }));

    expect(await screen.findByText('Xy7-generated-Pw')).toBeInTheDocument();
    expect(screen.getByText(/初始密码只显示这一次/)).toBeInTheDocument();
    const post = calls.find((c) => c.init?.method === 'POST')!;
    expect(JSON.parse(String(post.init!.body))).toEqual({
      username: 'globex2',
      companyName: 'Globex',
      postalCode: '200120',
      declarationTypes: [],
      createLogin: true,
    });
    expect(new Headers(post.init!.headers).get('Idempotency-Key')).toBeTruthy();
  });

  it('puts the server field errors on the inputs', async () => {
    answer = (url, init) =>
      url.pathname === '/api/v1/customers' && init?.method === 'POST'
        ? envelope(400, 400, 'bad', [{ field: 'scc', message: 'scc: check digit is wrong' }])
        : undefined;
    renderList(OPERATOR);
    fireEvent.click(await screen.findByRole('button', { name: '新建客户' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(/^用户名/), { target: { value: 'g3' } });
    fireEvent.change(within(dialog).getByLabelText(/^公司名称/), { target: { value: 'G3' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '创建' }));
    expect(await within(dialog).findByText('scc: check digit is wrong')).toBeInTheDocument();
  });

  it('puts a taken username on the username field', async () => {
    answer = (url, init) =>
      url.pathname === '/api/v1/customers' && init?.method === 'POST'
        ? envelope(409, 409, 'username acme exists already', { reason: 'USERNAME_TAKEN' })
        : undefined;
    renderList(OPERATOR);
    fireEvent.click(await screen.findByRole('button', { name: '新建客户' }));
    const dialog = await screen.findByRole('dialog');
    const username = within(dialog).getByLabelText(/^用户名/);
    fireEvent.change(username, { target: { value: 'acme' } });
    fireEvent.change(within(dialog).getByLabelText(/^公司名称/), { target: { value: 'A' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '创建' }));
    expect(await within(dialog).findByText('username acme exists already')).toBeInTheDocument();
    expect(username).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows the refusal of a delete in the dialog', async () => {
    answer = (url, init) =>
      url.pathname === '/api/v1/customers/c-1' && init?.method === 'DELETE'
        ? envelope(409, 409, '该客户有处理中的报关单，不能删除', null)
        : undefined;
    renderList(ADMIN);
    fireEvent.click(await screen.findByRole('button', { name: '删除 acme' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '删除' }));
    expect(await within(dialog).findByText('该客户有处理中的报关单，不能删除')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'DELETE')).toBe(true));
  });
});
