import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import CustomsChannelPage from '../pages/CustomsChannelPage';

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

const summary = {
  channel: 'on',
  status: 'degraded',
  problem: 'the oldest receipt in inbox/ has waited 900 s',
  waiting: 3,
  refused: 1,
  writtenToday: 42,
  receiptsToday: [
    { code: 'C', count: 2 },
    { code: 'P', count: 7 },
  ],
  inboxBacklog: 5,
  inboxOldestSecs: 900,
  failed: [{ name: 'r9.xml', reason: 'not a receipt file', failedAt: '2026-11-28T09:00:00+08:00' }],
  openAnomalies: 1,
};

const anomaly = {
  id: 'a-1',
  kind: 'unknown_cop_no',
  reason: 'CW9999999999999999 is not the CopNo of any message sent',
  copNo: 'CW9999999999999999',
  channel: 'P',
  noticeDate: '2026-11-28T10:00:00+08:00',
  receipt: {},
  source: 'r2.xml',
  declarationId: null,
  recordedAt: '2026-11-28T10:00:02+08:00',
  settledAction: null,
  settledNote: null,
  settledDeclarationId: null,
  settledAt: null,
  settledBy: null,
  declarationType: null,
  trackingNumber: null,
};

// A second copy that differs from the recorded one: its declaration is known.
const known = {
  ...anomaly,
  id: 'a-2',
  kind: 'different_copy',
  reason: 'a copy of a recorded receipt that differs in NOTE',
  copNo: 'CW0000000000000002',
  channel: 'L',
  declarationId: 'd-7',
  declarationType: 'IB',
  trackingNumber: '1ZKNOWN07',
};

let anomalies: unknown[] = [anomaly];

const declaration = {
  id: 'd-1',
  version: 3,
  trackingNumber: '1ZACME001',
  declarationType: 'OC',
  shipmentType: 1,
  status: 2,
  draftStatus: 1,
  declarationStatus: null,
  customerId: 'c-1',
  username: 'acme',
  companyName: null,
  port: null,
  slic: null,
  serviceType: null,
  estimatedPickupTime: null,
  goodsCount: 1,
  totalValue: null,
  currency: null,
  consigneeName: null,
  createdAt: '2026-11-22T12:39:19+08:00',
  updatedAt: '2026-11-22T12:40:00+08:00',
  customsReceipt: 'L',
  movedByHand: false,
};

let calls: { url: URL; init?: RequestInit }[] = [];

beforeEach(() => {
  calls = [];
  anomalies = [anomaly];
  useSessionStore.setState({ role: 'ADMIN', permissions: ['customs:management'] });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push({ url, init });
      if (url.pathname === '/api/v1/customs/summary') return ok(summary);
      if (url.pathname === '/api/v1/customs/anomalies')
        return ok({ records: anomalies, total: anomalies.length });
      if (url.pathname === '/api/v1/declarations') return ok({ records: [declaration], total: 1 });
      if (url.pathname.endsWith('/reimport')) return ok('r9.xml');
      return ok({ id: 'x', version: 2, position: 10 });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [] });
});

vi.setConfig({ testTimeout: 20_000 });

const posted = (suffix: string) => {
  const call = calls.find((c) => c.url.pathname.endsWith(suffix) && c.init?.method === 'POST');
  return call ? (JSON.parse(String(call.init?.body ?? '{}')) as Record<string, unknown>) : null;
};

function renderPage() {
  return renderWithProviders(
    <MemoryRouter>
      <CustomsChannelPage />
    </MemoryRouter>,
  );
}

describe('CustomsChannelPage', () => {
  it('shows the figures, receipts today by code, the problem and the failed files', async () => {
    renderPage();
    expect(await screen.findByText('42')).toBeInTheDocument();
    expect(screen.getByText('异常')).toBeInTheDocument();
    expect(screen.getByText(summary.problem)).toBeInTheDocument();
    expect(screen.getByText('最早文件 15 min')).toBeInTheDocument();
    const today = screen.getByRole('region', { name: '今日回执' });
    expect(within(today).getByText('C · 查验')).toBeInTheDocument();
    expect(within(today).getByText('7')).toBeInTheDocument();
    const failed = screen.getByRole('region', { name: '处理失败的回执文件（failed/）' });
    expect(within(failed).getByText('not a receipt file')).toBeInTheDocument();
    fireEvent.click(within(failed).getByRole('button', { name: '重新导入' }));
    await waitFor(() =>
      expect(calls.some((c) => c.url.pathname === '/api/v1/customs/failed/r9.xml/reimport')).toBe(
        true,
      ),
    );
  });

  it('dismisses an anomaly only with a note', async () => {
    renderPage();
    const card = await screen.findByText(anomaly.reason);
    fireEvent.click(
      within(card.closest('[data-anomaly]') as HTMLElement).getByRole('button', { name: '忽略' }),
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '忽略' }));
    expect(await within(dialog).findByText('请填写说明')).toBeInTheDocument();
    expect(posted('/settle')).toBeNull();
    fireEvent.change(within(dialog).getByLabelText(/说明/), {
      target: { value: 'test message from the gateway' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: '忽略' }));
    await waitFor(() =>
      expect(posted('/api/v1/customs/anomalies/a-1/settle')).toEqual({
        action: 'dismiss',
        note: 'test message from the gateway',
        declarationId: null,
      }),
    );
  });

  it('attaches an anomaly to a declaration found by its tracking number', async () => {
    renderPage();
    const card = await screen.findByText(anomaly.reason);
    fireEvent.click(
      within(card.closest('[data-anomaly]') as HTMLElement).getByRole('button', {
        name: '关联报关单',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('运单号'), { target: { value: '1ZACME001' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '查找' }));
    expect(await within(dialog).findByText('1ZACME001')).toBeInTheDocument();
    const search = calls.find((c) => c.url.pathname === '/api/v1/declarations')!.url.searchParams;
    expect(search.get('trackingNumber')).toBe('1ZACME001');
    fireEvent.change(within(dialog).getByLabelText(/说明/), { target: { value: 'ours' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '关联报关单' }));
    await waitFor(() =>
      expect(posted('/api/v1/customs/anomalies/a-1/settle')).toEqual({
        action: 'attach',
        note: 'ours',
        declarationId: 'd-1',
      }),
    );
  });

  it('links an anomaly whose declaration is known to its detail, and no other', async () => {
    anomalies = [anomaly, known];
    renderPage();
    const card = (await screen.findByText(known.reason)).closest('[data-anomaly]') as HTMLElement;
    const link = within(card).getByRole('link', { name: '1ZKNOWN07' });
    expect(link).toHaveAttribute('href', '/customs-clearance/detail-b/0?id=d-7');
    const unknown = screen.getByText(anomaly.reason).closest('[data-anomaly]') as HTMLElement;
    expect(within(unknown).queryByRole('link')).toBeNull();
  });

  it('re-sends a declared declaration found by its tracking number', async () => {
    renderPage();
    const resend = await screen.findByRole('region', { name: '重新发送报文' });
    fireEvent.change(within(resend).getByLabelText('运单号'), { target: { value: '1ZACME001' } });
    fireEvent.click(within(resend).getByRole('button', { name: '重新发送' }));
    await waitFor(() =>
      expect(posted('/api/v1/declarations/d-1/customs-messages/resend')).toEqual({}),
    );
    const search = calls.find((c) => c.url.pathname === '/api/v1/declarations')!.url.searchParams;
    expect(search.get('status')).toBe('2');
  });
});
