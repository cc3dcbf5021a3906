import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ModalsProvider } from '@mantine/modals';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import { atPhoneWidth } from '@/test/phoneWidth';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import DeclarationListPage from '../pages/DeclarationListPage';

function summary(over: Partial<DeclarationSummary>): DeclarationSummary {
  return {
    id: 'id-1',
    version: 2,
    trackingNumber: '1ZACME001',
    declarationType: 'OC',
    shipmentType: 1,
    status: 1,
    draftStatus: 1,
    declarationStatus: null,
    customerId: 'c-1',
    username: 'acme',
    companyName: 'ACME Trading',
    port: 'PVG',
    slic: 'SHA01',
    serviceType: '065',
    estimatedPickupTime: null,
    goodsCount: 2,
    totalValue: 230,
    currency: 'USD',
    consigneeName: 'John Smith',
    createdAt: '2026-11-22T12:39:19+08:00',
    updatedAt: '2026-11-22T12:40:00+08:00',
    ...over,
  };
}

const rows = [
  summary({}),
  summary({ id: 'id-2', trackingNumber: '1ZACME002', status: 2, version: 3 }),
  summary({ id: 'id-3', trackingNumber: '1ZACME003', status: 3, declarationStatus: 'P' }),
  summary({
    id: 'id-4',
    trackingNumber: '1ZACME004',
    status: 4,
    customsReceipt: 'C',
    customsReceiptAt: '2026-11-28T12:00:00+08:00',
    entryId: '222420261000077777',
  }),
  summary({
    id: 'id-5',
    trackingNumber: '1ZACME005',
    status: 10,
    declarationStatus: 'E',
    movedByHand: true,
  }),
];

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

// Autosizing textareas listen to document.fonts, which jsdom lacks.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });

let calls: URL[] = [];

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(url);
      if (url.pathname === '/api/v1/declarations') return ok({ records: rows, total: 23 });
      return ok([]);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null });
});

function Search() {
  return <output data-testid="search">{useLocation().search}</output>;
}

function renderList(role: 'OPERATOR' | 'ADMIN' | 'CUSTOMER', entry = '/list') {
  // The report export follows `declarations:export`, by default an admin's.
  useSessionStore.setState({
    role,
    permissions: role === 'ADMIN' ? ['declarations:management', 'declarations:export'] : [],
  });
  const router = createMemoryRouter(
    [
      {
        path: '/list',
        handle: {
          name: 'list',
          fullPath: '/list',
          navigable: true,
          meta: { declarationType: 'OC', area: role === 'CUSTOMER' ? 'customer' : 'staff' },
        },
        element: (
          <>
            <DeclarationListPage />
            <Search />
          </>
        ),
      },
    ],
    { initialEntries: [entry] },
  );
  return renderWithProviders(<RouterProvider router={router} />, (ui) => (
    <ModalsProvider>{ui}</ModalsProvider>
  ));
}

const listCalls = () => calls.filter((u) => u.pathname === '/api/v1/declarations');

// Mantine in jsdom is slow to render a full table; give each case room.
vi.setConfig({ testTimeout: 20_000 });

describe('DeclarationListPage', () => {
  it('asks the list endpoint for the page type, first page of 10, newest first', async () => {
    renderList('OPERATOR');
    expect(await screen.findByText('1ZACME001')).toBeInTheDocument();
    const params = Object.fromEntries(listCalls()[0].searchParams);
    expect(params).toMatchObject({
      declarationType: 'OC',
      pageNo: '1',
      pageSize: '10',
      sort: 'createdAt,desc',
    });
    expect(screen.getByText('共 23 条')).toBeInTheDocument();
  });

  it('shows statuses as badges and only the actions the role may take', async () => {
    renderList('OPERATOR');
    await screen.findByText('1ZACME001');
    const table = screen.getByRole('table');
    expect(within(table).getByText('未处理')).toBeInTheDocument();
    expect(within(table).getByText('已审核未完成')).toBeInTheDocument();
    expect(within(table).getByText('已完成')).toBeInTheDocument();
    // status 1: review / return; status 2: complete / reject; status 3: nothing for an operator
    expect(screen.getByRole('button', { name: '审核 1ZACME001' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '退回 1ZACME001' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '完成 1ZACME002' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /修改（已完成） 1ZACME003/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /撤回/ })).toBeNull();
    // operators do not export; no selection column
    expect(screen.queryByRole('button', { name: '导出当前筛选结果' })).toBeNull();
    expect(screen.queryByRole('checkbox', { name: '全选' })).toBeNull();
  });

  it('customers withdraw their unprocessed declarations and see no customer filter', async () => {
    renderList('CUSTOMER');
    await screen.findByText('1ZACME001');
    expect(screen.getByRole('button', { name: '撤回 1ZACME001' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '审核 1ZACME001' })).toBeNull();
    expect(screen.queryByLabelText('客户账号')).toBeNull();
  });

  it('admins select rows, amend completed ones and may export', async () => {
    renderList('ADMIN');
    await screen.findByText('1ZACME001');
    expect(screen.getByRole('button', { name: '修改（已完成） 1ZACME003' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '导出当前筛选结果' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('checkbox', { name: '选择第 1 行' }));
    expect(await screen.findByText('已选 1 条')).toBeInTheDocument();
  });

  it('titles the page with the type by name', async () => {
    renderList('OPERATOR');
    await screen.findByText('1ZACME001');
    expect(screen.getByRole('heading', { level: 1, name: '出口 C类' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: /^出口 C类/ })).toBeInTheDocument();
  });

  it('shows a phone a card per declaration: tracking number, status with the newest receipt, date and the actions', async () => {
    const restore = atPhoneWidth();
    try {
      renderList('OPERATOR');
      const list = await screen.findByRole('list', { name: /^出口 C类/ });
      expect(screen.queryByRole('table')).toBeNull();
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(5);
      const held = cards[3];
      expect(held.querySelector('[data-card-title]')).toHaveTextContent('1ZACME004');
      const status = held.querySelector('[data-card-field="status"]') as HTMLElement;
      expect(status).toHaveTextContent('单证异常待补充');
      expect(status.querySelector('[data-receipt="C"]')).toHaveTextContent('查验');
      expect(held.querySelector('[data-card-field="createdAt"]')).toHaveTextContent('2026-11-22');
      expect(held.querySelector('[data-card-field="username"]')).toHaveTextContent('acme');
      // What the table shows beside (entry number, port, value, tax) stays off the card.
      expect(held).not.toHaveTextContent('222420261000077777');
      expect(held.querySelector('[data-card-field="port"]')).toBeNull();
      const first = cards[0];
      expect(within(first).getByRole('button', { name: '审核 1ZACME001' })).toBeInTheDocument();
    } finally {
      restore();
    }
  });

  it('puts filters in the URL and refetches with them', async () => {
    renderList('OPERATOR', '/list?status=1');
    await screen.findByText('1ZACME001');
    expect(listCalls()[0].searchParams.get('status')).toBe('1');

    fireEvent.change(screen.getByLabelText('运单号'), { target: { value: '1ZA, 1ZB\n1ZA' } });
    fireEvent.change(screen.getByLabelText('客户账号'), { target: { value: ' acme ' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));

    await waitFor(() =>
      expect(screen.getByTestId('search').textContent).toBe(
        '?status=1&trackingNumber=1ZA%2C1ZB&username=acme',
      ),
    );
    await waitFor(() => {
      const last = listCalls().at(-1)!.searchParams;
      expect(last.get('trackingNumber')).toBe('1ZA,1ZB');
      expect(last.get('username')).toBe('acme');
      expect(last.get('status')).toBe('1');
    });

    fireEvent.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(screen.getByTestId('search').textContent).toBe(''));
  });

  it('shows the newest customs receipt beside the status, the entry number and moves by hand', async () => {
    renderList('OPERATOR');
    await screen.findByText('1ZACME004');
    const table = screen.getByRole('table');
    expect(within(table).getByText('C · 查验')).toBeInTheDocument();
    expect(within(table).getByText('222420261000077777')).toBeInTheDocument();
    expect(within(table).getAllByText('手工')).toHaveLength(1);
  });

  it('filters by the customs receipt and the entry number through the URL', async () => {
    renderList('CUSTOMER', '/list?customsReceipt=C');
    await screen.findByText('1ZACME001');
    expect(listCalls()[0].searchParams.get('customsReceipt')).toBe('C');
    fireEvent.change(screen.getByLabelText('报关单号'), {
      target: { value: ' 222420261000077777 ' },
    });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => {
      const last = listCalls().at(-1)!.searchParams;
      expect(last.get('entryId')).toBe('222420261000077777');
      expect(last.get('customsReceipt')).toBe('C');
    });
  });

  it('sends a move with If-Match after confirming it', async () => {
    renderList('OPERATOR');
    await screen.findByText('1ZACME001');
    fireEvent.click(screen.getByRole('button', { name: '审核 1ZACME001' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '审核' }));
    await waitFor(() =>
      expect(calls.some((u) => u.pathname === '/api/v1/declarations/id-1/review')).toBe(true),
    );
    const init = (
      fetch as unknown as { mock: { calls: [unknown, RequestInit][] } }
    ).mock.calls.find(([u]) => String(u).includes('/review'))![1];
    expect((init.headers as Record<string, string>)['If-Match']).toBe('2');
    expect(init.method).toBe('POST');
  });
});
