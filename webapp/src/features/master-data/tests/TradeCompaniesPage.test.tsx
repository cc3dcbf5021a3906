import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import TradeCompaniesPage from '@/features/master-data/pages/TradeCompaniesPage';
import type { TradeCompanyRecord } from '@/shared/master-data/api/types';

const record: TradeCompanyRecord = {
  id: 't-1',
  customerId: 'c-1',
  customerName: 'ACME Trading',
  companyNameCn: '深圳某某科技有限公司',
  companyNameEn: 'Shenzhen Example Tech',
  uscc: '91440300MA5FHK4H1F',
  customsCode: '4403960ABC',
  inspectionCode: null,
  address: null,
  createBy: 'acme',
  createTime: '2026-11-22T12:39:19+08:00',
  updateBy: 'acme',
  updateTime: '2026-11-22T12:39:19+08:00',
  version: 3,
};

const envelope = (status: number, code: number, message: string, data: unknown) =>
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
      if (url.pathname === '/api/v1/trade-companies' && (init?.method ?? 'GET') === 'GET')
        return envelope(200, 200, 'ok', { records: [record], total: 1 });
      if (url.pathname === '/api/v1/trade-companies' && init?.method === 'POST')
        return envelope(400, 400, 'uscc: the check character is wrong', [
          { field: 'uscc', message: 'uscc: the check character is wrong' },
        ]);
      if (url.pathname === '/api/v1/trade-companies/t-1')
        return envelope(200, 200, 'ok', { id: 't-1', version: 4, position: 9 });
      return envelope(200, 200, 'ok', []);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [] });
});

function render(role: 'CUSTOMER' | 'OPERATOR') {
  useSessionStore.setState({
    role,
    permissions: role === 'CUSTOMER' ? [] : ['customers:management'],
  });
  const router = createMemoryRouter(
    [{ path: '/customers-center/trade', element: <TradeCompaniesPage /> }],
    { initialEntries: ['/customers-center/trade'] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

vi.setConfig({ testTimeout: 20_000 });

describe('TradeCompaniesPage', () => {
  it('lists the first page and shows the customer column to staff only', async () => {
    render('CUSTOMER');
    expect(await screen.findByText('深圳某某科技有限公司')).toBeInTheDocument();
    const list = calls.find((c) => c.url.pathname === '/api/v1/trade-companies');
    expect(list?.url.searchParams.get('pageNo')).toBe('1');
    expect(list?.url.searchParams.get('pageSize')).toBe('10');
    expect(screen.queryByText('ACME Trading')).not.toBeInTheDocument();
  });

  it('shows staff the owning customer', async () => {
    render('OPERATOR');
    expect(await screen.findByText('ACME Trading')).toBeInTheDocument();
  });

  it('checks the form before sending and shows the server field error', async () => {
    render('CUSTOMER');
    await screen.findByText('深圳某某科技有限公司');
    fireEvent.click(screen.getAllByRole('button', { name: /新增贸易公司|Add trade company/ })[0]);
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: /保存|Save/ }));
    expect(await screen.findAllByText(/此项为必填项|This field is required/)).toHaveLength(2);
    expect(calls.some((c) => c.init?.method === 'POST')).toBe(false);

    const input = (label: RegExp) => screen.getByLabelText(label, { selector: 'input' });
    fireEvent.change(input(/中文名称|Chinese name/), { target: { value: '某公司' } });
    // A well-formed code with a wrong check character: the client says so first.
    fireEvent.change(input(/统一社会信用代码|Unified social credit code/), {
      target: { value: '91440300MA5FHK4H1E' },
    });
    fireEvent.click(screen.getByRole('button', { name: /保存|Save/ }));
    expect(await screen.findByText(/校验位不正确|check character/)).toBeInTheDocument();
    expect(calls.some((c) => c.init?.method === 'POST')).toBe(false);

    fireEvent.change(input(/统一社会信用代码|Unified social credit code/), {
      target: { value: '91440300MA5FHK4H1F' },
    });
    fireEvent.click(screen.getByRole('button', { name: /保存|Save/ }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'POST')).toBe(true));
    expect(await screen.findByText('uscc: the check character is wrong')).toBeInTheDocument();
    expect(dialog).toBeInTheDocument();
  });

  it('edits with the version as If-Match', async () => {
    render('CUSTOMER');
    await screen.findByText('深圳某某科技有限公司');
    fireEvent.click(screen.getByRole('button', { name: /编辑|Edit/ }));
    await screen.findByRole('dialog');
    fireEvent.click(screen.getByRole('button', { name: /保存|Save/ }));
    await waitFor(() => expect(calls.some((c) => c.init?.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.init?.method === 'PUT');
    expect((put?.init?.headers as Record<string, string>)['If-Match']).toBe('3');
    expect(JSON.parse(String(put?.init?.body))).toMatchObject({
      companyNameCn: '深圳某某科技有限公司',
      inspectionCode: null,
    });
  });
});
