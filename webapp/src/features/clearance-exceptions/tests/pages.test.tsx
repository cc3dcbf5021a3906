import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ModalsProvider } from '@mantine/modals';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import type { Role } from '@/lib/roles';
import { renderWithProviders } from '@/test/render';
import { atPhoneWidth } from '@/test/phoneWidth';
import i18n from '@/lib/i18n';
import type { RouteMeta } from '@/shared/routing/types';
import type {
  ClearanceException,
  ExceptionSummary,
} from '@/shared/clearance-exceptions/model/types';
import { emptyExceptionForm, toExceptionBody } from '../model/form';
import ExceptionListPage from '../pages/ExceptionListPage';
import ExceptionDetailPage from '../pages/ExceptionDetailPage';
import ExceptionCreatePage from '../pages/ExceptionCreatePage';
import { ExceptionStatusBadge } from '@/shared/clearance-exceptions/components/StatusBadge';
import { WaitingOnCustomersCard } from '@/shared/clearance-exceptions/components/WaitingOnCustomersCard';

vi.setConfig({ testTimeout: 60_000 });

// Autosizing textareas listen to document.fonts, which jsdom lacks.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

function row(over: Partial<ExceptionSummary>): ExceptionSummary {
  return {
    id: 'e-1',
    version: 1,
    declarationId: 'd-1',
    trackingNumber: '1ZEXC001',
    declarationType: 'OC',
    shipmentType: 1,
    status: 1,
    port: 'PVG',
    username: 'acme',
    companyName: 'ACME Trading',
    exceptionSummary: 'Commercial invoice missing',
    requestedDocuments: ['commercialInvoice', 'Bill of lading'],
    waitingOn: 'staff',
    statusSince: new Date(Date.now() - 26 * 3600_000).toISOString(),
    overdue: false,
    createdAt: '2026-11-22T12:39:19+08:00',
    updatedAt: '2026-11-22T12:40:00+08:00',
    ...over,
  };
}

function exception(over: Partial<ClearanceException>): ClearanceException {
  const form = emptyExceptionForm();
  form.documents.isCommercialInvoiceChecked = true;
  form.exceptionSummary = 'Commercial invoice missing';
  form.changes.isExchangeHtsCodeChecked = true;
  form.contacts.recipientEmail = 'buyer@example.com';
  return {
    ...row({}),
    declarationStatus: 2,
    form: toExceptionBody(form),
    proposedChanges: [
      {
        kind: 'htsCode',
        field: 'declarationGoodsInfo[0].goodsCode',
        old: '8471309000',
        new: '8471414000',
      },
    ],
    confirmed: false,
    channels: ['email'],
    contacts: [{ channel: 'email', party: 'recipient', address: 'buyer@example.com' }],
    lastReason: null,
    documents: [
      {
        documentId: 'doc-1',
        fileName: 'invoice.pdf',
        contentType: 'application/pdf',
        size: 2048,
        uploadedAt: '2026-11-23T10:00:00+08:00',
        uploadedBy: 'acme',
      },
    ],
    deliveries: [
      {
        id: 'dl-1',
        channel: 'email',
        recipient: 'buyer@example.com',
        status: 'sent',
        attempts: 1,
        lastError: null,
        updatedAt: '2026-11-22T12:41:00+08:00',
      },
      {
        id: 'dl-2',
        channel: 'sms',
        recipient: '13800000000',
        status: 'not_configured',
        attempts: 1,
        lastError: null,
        updatedAt: '2026-11-22T12:41:00+08:00',
      },
    ],
    ...over,
  };
}

const history = [
  {
    version: 1,
    position: 10,
    at: '2026-11-22T12:39:19+08:00',
    actor: { id: 'u1', name: 'operator', role: 'OPERATOR' },
    eventType: 'ClearanceExceptionRaised',
    action: 'raise',
    fromStatus: null,
    toStatus: 1,
    reason: null,
  },
  {
    version: 2,
    position: 11,
    at: '2026-11-22T12:40:00+08:00',
    actor: { id: 'u1', name: 'operator', role: 'OPERATOR' },
    eventType: 'ClearanceExceptionNotified',
    action: 'notify',
    fromStatus: 1,
    toStatus: 2,
    reason: null,
  },
];

interface Call {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}
let calls: Call[] = [];
let detail: ClearanceException = exception({});

beforeEach(() => {
  calls = [];
  detail = exception({});
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : (init?.body ?? null);
      calls.push({ url, method, headers: (init?.headers ?? {}) as Record<string, string>, body });
      const p = url.pathname;
      if (p === '/api/v1/clearance/batch-export')
        return new Response('xlsx', {
          status: 200,
          headers: {
            'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'Content-Disposition': 'attachment; filename="clearance-exceptions-20261124-2330.xlsx"',
          },
        });
      if (method === 'POST') return ok({ id: 'e-new', version: 2, position: 99 });
      if (p === '/api/v1/clearance-exceptions')
        return ok({
          records: [
            row({}),
            row({
              id: 'e-2',
              trackingNumber: '1ZEXC002',
              status: 3,
              waitingOn: 'customer',
              overdue: true,
            }),
            row({ id: 'e-3', trackingNumber: '1ZEXC003', status: 6 }),
          ],
          total: 13,
        });
      if (p === '/api/v1/clearance-exceptions/e-1') return ok(detail);
      if (p === '/api/v1/clearance-exceptions/other')
        return new Response(JSON.stringify({ code: 404, message: 'not found', data: null }), {
          status: 404,
          headers: { 'Content-Type': 'application/json' },
        });
      if (p === '/api/v1/clearance-exceptions/e-1/history') return ok(history);
      if (p === '/api/v1/declarations/d-1')
        return ok({
          id: 'd-1',
          version: 3,
          declarationType: 'OC',
          declarationClass: 'C',
          shipmentType: 1,
          status: 2,
          trackingNumber: '1ZDECL001',
          username: 'acme',
          customerId: 'c-1',
          declarationGoodsInfo: [{ goodsCode: '8471309000', goodsName: 'Laptop' }],
          createdAt: '2026-11-22T12:00:00+08:00',
          updatedAt: '2026-11-22T12:00:00+08:00',
        });
      return ok([]);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [] });
});

function Search() {
  return <output data-testid="location">{useLocation().pathname + useLocation().search}</output>;
}

function renderPage(page: ReactElement, role: Role, entry: string, meta: RouteMeta) {
  // Staff hold clearance:management (the lists need it); customers hold no code.
  useSessionStore.setState({
    role,
    permissions: role === 'CUSTOMER' ? [] : ['clearance:management'],
  });
  const path = entry.split('?')[0];
  const router = createMemoryRouter(
    [
      {
        path,
        handle: { name: 'page', fullPath: path, navigable: true, meta },
        element: (
          <>
            {page}
            <Search />
          </>
        ),
      },
      { path: '*', element: <Search /> },
    ],
    { initialEntries: [entry] },
  );
  return renderWithProviders(<RouterProvider router={router} />, (ui) => (
    <ModalsProvider>{ui}</ModalsProvider>
  ));
}

const posts = () => calls.filter((c) => c.method === 'POST');

describe('ExceptionStatusBadge', () => {
  it('labels every status of spec 4', () => {
    renderWithProviders(
      <>
        {[1, 2, 3, 4, 6, 7].map((s) => (
          <ExceptionStatusBadge key={s} status={s} />
        ))}
      </>,
    );
    for (const label of ['待处理', '已通知客户', '待客户确认', '待审核', '审核完成', '已作废'])
      expect(screen.getByText(label)).toBeInTheDocument();
  });
});

describe('ExceptionListPage', () => {
  it('lists the page direction with badges, age, overdue and paging', async () => {
    renderPage(<ExceptionListPage />, 'OPERATOR', '/clearance-exception/export', {
      area: 'staff',
      exceptionDirection: 'export',
    });
    expect(await screen.findByText('1ZEXC001')).toBeInTheDocument();
    const params = Object.fromEntries(
      calls.find((c) => c.url.pathname === '/api/v1/clearance-exceptions')!.url.searchParams,
    );
    expect(params).toMatchObject({
      shipmentType: '1',
      pageNo: '1',
      pageSize: '10',
      sort: 'createdAt,desc',
    });
    const table = screen.getByRole('table');
    expect(within(table).getByText('待处理')).toBeInTheDocument();
    expect(within(table).getByText('待客户确认')).toBeInTheDocument();
    expect(within(table).getByText('审核完成')).toBeInTheDocument();
    expect(within(table).getByText('已超时')).toBeInTheDocument();
    expect(within(table).getAllByText('商业发票、Bill of lading')).toHaveLength(3);
    expect(within(table).getByText(/1 天 2 小时 · 等待我方/)).toBeInTheDocument();
    expect(screen.getByText('共 13 条')).toBeInTheDocument();
  });

  it('names the declaration type, with its code for staff', async () => {
    renderPage(<ExceptionListPage />, 'OPERATOR', '/clearance-exception/export', {
      area: 'staff',
      exceptionDirection: 'export',
    });
    await screen.findByText('1ZEXC001');
    const table = screen.getByRole('table');
    expect(within(table).getAllByText('出口 C类（OC）')).toHaveLength(3);
    expect(within(table).queryByText('OC')).toBeNull();
  });

  it('shows a phone a card per exception: tracking number, type by name, status, waiting, the view action', async () => {
    const restore = atPhoneWidth();
    try {
      await i18n.changeLanguage('en');
      renderPage(<ExceptionListPage />, 'CUSTOMER', '/customer-exception/export', {
        area: 'customer',
        exceptionDirection: 'export',
      });
      const list = await screen.findByRole('list', { name: /Exceptions: export shipments/ });
      expect(screen.queryByRole('table')).toBeNull();
      const cards = within(list).getAllByRole('listitem');
      expect(cards).toHaveLength(3);
      const second = cards[1];
      expect(second.querySelector('[data-card-title]')).toHaveTextContent('1ZEXC002');
      expect(second.querySelector('[data-card-field="declarationType"]')).toHaveTextContent(
        'Export class C',
      );
      expect(second).not.toHaveTextContent('(OC)');
      expect(second.querySelector('[data-card-field="status"]')).toHaveTextContent(
        'Awaiting customer confirmation',
      );
      expect(second.querySelector('[data-card-field="statusSince"]')).toHaveTextContent('Overdue');
      expect(within(second).getByRole('button', { name: 'View 1ZEXC002' })).toBeInTheDocument();
      expect(second.querySelector('[data-card-field="requestedDocuments"]')).toBeNull();
    } finally {
      restore();
      await i18n.changeLanguage('zh');
    }
  });

  it('writes the filters to the URL and the next query', async () => {
    renderPage(<ExceptionListPage />, 'OPERATOR', '/clearance-exception/import', {
      area: 'staff',
      exceptionDirection: 'import',
    });
    await screen.findByText('1ZEXC001');
    fireEvent.change(screen.getByLabelText('口岸'), { target: { value: 'PVG' } });
    fireEvent.change(screen.getByLabelText('运单号'), { target: { value: '1ZA\n1ZB' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toContain('trackingNumber=1ZA%2C1ZB'),
    );
    await waitFor(() => {
      const last = calls.filter((c) => c.url.pathname === '/api/v1/clearance-exceptions').at(-1)!;
      expect(Object.fromEntries(last.url.searchParams)).toMatchObject({
        shipmentType: '0',
        port: 'PVG',
        trackingNumber: '1ZA,1ZB',
      });
    });
  });

  it('offers customers no export and no port filter', async () => {
    renderPage(<ExceptionListPage />, 'CUSTOMER', '/customer-exception/export', {
      area: 'customer',
      exceptionDirection: 'export',
    });
    await screen.findByText('1ZEXC001');
    expect(screen.queryByRole('button', { name: '导出' })).toBeNull();
    expect(screen.queryByLabelText('口岸')).toBeNull();
    expect(screen.getByRole('button', { name: '创建异常' })).toBeInTheDocument();
  });

  it('exports the filtered list as the exception export form and saves the file under the name the server gives', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    renderPage(
      <ExceptionListPage />,
      'ADMIN',
      '/clearance-exception/import?status=3&fromDate=20261101&toDate=20261124',
      { area: 'staff', exceptionDirection: 'import' },
    );
    await screen.findByText('1ZEXC001');
    fireEvent.click(screen.getByRole('button', { name: '导出' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('radio', { name: 'XML' }));
    fireEvent.click(within(dialog).getByRole('button', { name: '导出' }));
    await waitFor(() => expect(saved).toEqual(['clearance-exceptions-20261124-2330.xlsx']));
    const call = calls.find((c) => c.url.pathname === '/api/v1/clearance/batch-export')!;
    expect(call.body).toEqual({
      declarationType: '',
      port: '',
      shipmentType: '0',
      status: '3',
      fromDate: '20261101',
      toDate: '20261124',
      sort: '2',
      exportFormat: '02',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    click.mockRestore();
  });

  it('offers an operator no export (the server exports for admins only)', async () => {
    renderPage(<ExceptionListPage />, 'OPERATOR', '/clearance-exception/export', {
      area: 'staff',
      exceptionDirection: 'export',
    });
    await screen.findByText('1ZEXC001');
    expect(screen.queryByRole('button', { name: '导出' })).toBeNull();
  });

  it('refuses an export without a date range and names the rule', async () => {
    renderPage(<ExceptionListPage />, 'ADMIN', '/clearance-exception/export', {
      area: 'staff',
      exceptionDirection: 'export',
    });
    await screen.findByText('1ZEXC001');
    fireEvent.click(screen.getByRole('button', { name: '导出' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '导出' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('请选择自定义日期');
    expect(calls.some((c) => c.url.pathname === '/api/v1/clearance/batch-export')).toBe(false);
  });
});

const detailMeta: RouteMeta = { area: 'staff' };

describe('ExceptionDetailPage', () => {
  it('shows staff what is asked, the files, channels, history and delivery log', async () => {
    renderPage(
      <ExceptionDetailPage />,
      'OPERATOR',
      '/clearance-exception/detail?id=e-1',
      detailMeta,
    );
    expect((await screen.findAllByText('商业发票'))[0]).toBeInTheDocument();
    expect(screen.getByText('8471414000')).toBeInTheDocument();
    expect(screen.getByText('invoice.pdf')).toBeInTheDocument();
    expect(screen.getByText(/2 KB · 2026-11-2\d \d\d:\d\d · acme/)).toBeInTheDocument();
    expect(screen.getByText('渠道未配置')).toBeInTheDocument();
    expect(await screen.findByText('创建异常')).toBeInTheDocument();
    expect(screen.getByText('通知客户', { selector: 'p' })).toBeInTheDocument();
    // status 1: notify and void only
    expect(screen.getByRole('button', { name: '通知客户' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '作废' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '审核通过' })).toBeNull();
  });

  it('approves with the version it shows', async () => {
    detail = exception({ status: 4, version: 7 });
    renderPage(
      <ExceptionDetailPage />,
      'OPERATOR',
      '/clearance-exception/detail?id=e-1',
      detailMeta,
    );
    fireEvent.click(await screen.findByRole('button', { name: '审核通过' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '审核通过' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].url.pathname).toBe('/api/v1/clearance-exceptions/e-1/approve');
    expect(posts()[0].headers['If-Match']).toBe('7');
    // an operator may not void an exception awaiting review
    expect(screen.queryByRole('button', { name: '作废' })).toBeNull();
  });

  it('shows the moves the server lists when it lists them', async () => {
    detail = exception({ status: 4, actions: ['reject'] });
    renderPage(<ExceptionDetailPage />, 'ADMIN', '/clearance-exception/detail?id=e-1', detailMeta);
    expect(await screen.findByRole('button', { name: '退回客户' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '审核通过' })).toBeNull();
    expect(screen.queryByRole('button', { name: '作废' })).toBeNull();
  });

  it('needs a reason to send back, and sends it', async () => {
    detail = exception({ status: 4, version: 5 });
    renderPage(<ExceptionDetailPage />, 'ADMIN', '/clearance-exception/detail?id=e-1', detailMeta);
    fireEvent.click(await screen.findByRole('button', { name: '退回客户' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '退回客户' }));
    expect(posts()).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText(/原因/), {
      target: { value: 'Invoice unreadable' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '退回客户' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].url.pathname).toBe('/api/v1/clearance-exceptions/e-1/reject');
    expect(posts()[0].body).toEqual({ reason: 'Invoice unreadable' });
  });

  it('says plainly when the notice reached no one, and sends it again on the channel ticked', async () => {
    detail = exception({
      status: 2,
      version: 3,
      channels: ['sms'],
      actions: ['notify', 'void'],
      noticeDelivery: {
        state: 'not_delivered',
        problems: [
          { channel: 'sms', recipient: '138****5678', status: 'not_configured', error: null },
        ],
      },
    });
    renderPage(
      <ExceptionDetailPage />,
      'OPERATOR',
      '/clearance-exception/detail?id=e-1',
      detailMeta,
    );
    const alert = await screen.findByTestId('notice-not-delivered');
    expect(alert).toHaveTextContent('通知未送达客户');
    expect(alert).toHaveTextContent('短信 → 138****5678：渠道未配置');
    expect(screen.getAllByText('未送达').length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: '再次通知' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '短信' }));
    fireEvent.click(within(dialog).getByRole('checkbox', { name: '电子邮件' }));
    fireEvent.click(within(dialog).getByRole('button', { name: '再次通知' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].url.pathname).toBe('/api/v1/clearance-exceptions/e-1/notify');
    expect(posts()[0].headers['If-Match']).toBe('3');
    expect(posts()[0].body).toEqual({ channels: ['email'] });
  });

  it('acknowledges a notified exception when the customer opens it', async () => {
    detail = exception({ status: 2, version: 3 });
    renderPage(<ExceptionDetailPage />, 'CUSTOMER', '/customer-exception/detail?id=e-1', {
      area: 'customer',
    });
    await screen.findAllByText('商业发票');
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].url.pathname).toBe('/api/v1/clearance-exceptions/e-1/acknowledge');
    expect(posts()[0].headers['If-Match']).toBe('3');
    // customers see no delivery log and no contacts
    expect(screen.queryByText('通知发送记录')).toBeNull();
  });

  it("says so when the exception is not the customer's (404)", async () => {
    renderPage(<ExceptionDetailPage />, 'CUSTOMER', '/customer-exception/detail?id=other', {
      area: 'customer',
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('找不到该清关异常');
    expect(posts()).toHaveLength(0);
  });

  it('lets the customer upload and confirm while awaiting confirmation', async () => {
    detail = exception({ status: 3, version: 4 });
    renderPage(<ExceptionDetailPage />, 'CUSTOMER', '/customer-exception/detail?id=e-1', {
      area: 'customer',
    });
    // Each requested document has its own upload; the invoice on file was sent beside them.
    expect(await screen.findByRole('button', { name: '上传商业发票' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '上传Bill of lading' })).toBeInTheDocument();
    expect(screen.getAllByText('尚未提交')).toHaveLength(2);
    const input = document.querySelector(
      '[data-slot="commercialInvoice"] input[type=file]',
    ) as HTMLInputElement;
    const big = new File([new Uint8Array(3 * 1024 * 1024 + 1)], 'scan.pdf', {
      type: 'application/pdf',
    });
    fireEvent.change(input, { target: { files: [big] } });
    expect(await screen.findByText('scan.pdf 超过 3.0 MB，无法上传')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);
    const file = new File(['%PDF-1.4'], 'invoice.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(posts()).toHaveLength(1));
    const upload = posts()[0];
    expect(upload.url.pathname).toBe('/api/v1/clearance-exceptions/e-1/documents');
    expect(upload.body).toBeInstanceOf(FormData);
    expect((upload.body as FormData).get('file')).toBeInstanceOf(File);
    expect((upload.body as FormData).get('requested')).toBe('commercialInvoice');
    // the browser sets the multipart boundary itself
    expect(upload.headers['Content-Type']).toBeUndefined();
    calls = [];

    // Both requested documents still lack a file (the detail is not reloaded here): the
    // answer needs a reason for each, and is not sent without them.
    fireEvent.click(screen.getByRole('button', { name: '已全部提供，提交审核' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '已全部提供，提交审核' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      '请说明“商业发票”未提交的原因',
    );
    expect(posts()).toHaveLength(0);
    fireEvent.change(within(dialog).getByLabelText(/“商业发票”为何未提交/), {
      target: { value: 'sent by post' },
    });
    fireEvent.change(within(dialog).getByLabelText(/“Bill of lading”为何未提交/), {
      target: { value: 'not issued yet' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '已全部提供，提交审核' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].url.pathname).toBe('/api/v1/clearance-exceptions/e-1/respond');
    expect(posts()[0].body).toEqual({
      confirmChanges: true,
      missing: [
        { document: 'commercialInvoice', reason: 'sent by post' },
        { document: 'Bill of lading', reason: 'not issued yet' },
      ],
    });
  });
});

describe('ExceptionCreatePage', () => {
  it('refuses an empty form without calling the server, then raises a complete one', async () => {
    renderPage(
      <ExceptionCreatePage />,
      'OPERATOR',
      '/clearance-exception/createException?declarationId=d-1',
      { area: 'staff' },
    );
    expect(await screen.findByText('1ZDECL001')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: '创建此异常' }));
    expect(await screen.findByText('请填写异常摘要')).toBeInTheDocument();
    expect(screen.getByText('请至少选择一项需补充的单证或一项建议的修改')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);

    fireEvent.click(screen.getByLabelText('商业发票'));
    fireEvent.click(screen.getByLabelText('更换 HS 编码'));
    expect(screen.getByLabelText('更换 HS 编码 原值')).toHaveValue('8471309000');
    fireEvent.change(screen.getByLabelText('更换 HS 编码 新值'), {
      target: { value: '8471414000' },
    });
    fireEvent.change(screen.getByLabelText('异常描述 1'), {
      target: { value: 'Invoice missing' },
    });
    fireEvent.change(screen.getByRole('combobox', { name: '收件人邮箱' }), {
      target: { value: 'buyer@example.com' },
    });
    fireEvent.change(screen.getByLabelText(/异常摘要/), {
      target: { value: 'Please send the commercial invoice' },
    });
    fireEvent.click(screen.getByRole('button', { name: '创建此异常' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    const call = posts()[0];
    expect(call.url.pathname).toBe('/api/v1/clearance-exceptions');
    expect(call.headers['Idempotency-Key']).toBeTruthy();
    expect(call.body).toMatchObject({
      declarationId: 'd-1',
      isCommercialInvoiceChecked: true,
      isExchangeHtsCodeChecked: true,
      newHtsCode: '8471414000',
      sendToEmail: true,
      notificationContact: { recipientEmail: 'buyer@example.com' },
      exceptionSummary: 'Please send the commercial invoice',
    });
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/clearance-exception/detail?id=e-new',
      ),
    );
  });
});

describe('ExceptionCreatePage for a customer', () => {
  it('asks what the customer can tell us, not the staff form', async () => {
    renderPage(
      <ExceptionCreatePage />,
      'CUSTOMER',
      '/customer-exception/createException?declarationId=d-1',
      { area: 'customer' },
    );
    expect(await screen.findByText('1ZDECL001')).toBeInTheDocument();
    expect(screen.getByText('您将提供的文件')).toBeInTheDocument();
    // No notice channels, no contacts' WeChat ids or payer accounts, no exception codes.
    expect(screen.queryByText('通知渠道')).toBeNull();
    expect(screen.queryByRole('combobox', { name: '收件人邮箱' })).toBeNull();
    expect(screen.queryByLabelText('异常代码 1')).toBeNull();

    fireEvent.click(screen.getByLabelText('商业发票'));
    fireEvent.change(screen.getByLabelText(/请说明这票货物有什么问题/), {
      target: { value: 'The invoice will follow by e-mail' },
    });
    // Without a way to reach them the form says so and sends nothing.
    fireEvent.click(screen.getByRole('button', { name: '提交给我们的团队' }));
    expect(await screen.findByText('请留下电话或电子邮箱，以便我们联系您')).toBeInTheDocument();
    expect(posts()).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('您的电话'), { target: { value: '13800138000' } });
    fireEvent.click(screen.getByRole('button', { name: '提交给我们的团队' }));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toMatchObject({
      declarationId: 'd-1',
      isCommercialInvoiceChecked: true,
      exceptionSummary: 'The invoice will follow by e-mail',
      personalPhone: '13800138000',
      sendToSms: true,
      sendToEmail: false,
    });
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        '/customer-exception/detail?id=e-new',
      ),
    );
  });
});

describe('WaitingOnCustomersCard', () => {
  it('asks for the oldest notified and confirming exceptions and flags the overdue', async () => {
    const byStatus: Record<string, ExceptionSummary[]> = {
      '2': [
        row({ id: 'n1', trackingNumber: '1ZOLD', status: 2, waitingOn: 'customer', overdue: true }),
      ],
      '3': [row({ id: 'c1', trackingNumber: '1ZNEW', status: 3, waitingOn: 'customer' })],
      '4': [],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: RequestInfo | URL) => {
        const url = new URL(String(input), 'http://localhost');
        calls.push({ url, method: 'GET', headers: {}, body: null });
        const status = url.searchParams.get('status') ?? '';
        return ok({ records: byStatus[status] ?? [], total: status === '4' ? 7 : 1 });
      }),
    );
    renderPage(<WaitingOnCustomersCard />, 'OPERATOR', '/admin-welcome', {});
    expect(await screen.findByText('1ZOLD')).toBeInTheDocument();
    expect(screen.getByText('1ZNEW')).toBeInTheDocument();
    expect(screen.getByText('1 个已超时')).toBeInTheDocument();
    expect(await screen.findByText('待审核：7')).toBeInTheDocument();
    const asked = calls.map((c) => Object.fromEntries(c.url.searchParams));
    expect(asked).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: '2', sort: 'statusSince,asc' }),
        expect.objectContaining({ status: '3', sort: 'statusSince,asc' }),
      ]),
    );
  });
});
