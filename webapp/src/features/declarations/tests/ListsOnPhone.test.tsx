// The "all declarations" list and the status query: types by name (with the code for
// staff), and on a phone a card per declaration from the same columns as the table.
import { screen, within } from '@testing-library/react';
import { ModalsProvider } from '@mantine/modals';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { useSessionStore } from '@/lib/session';
import type { Role } from '@/lib/roles';
import { renderWithProviders } from '@/test/render';
import { atPhoneWidth } from '@/test/phoneWidth';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import AllDeclarationsPage from '../pages/AllDeclarationsPage';
import StatusQueryPage from '../pages/StatusQueryPage';

vi.setConfig({ testTimeout: 30_000 });

function summary(over: Partial<DeclarationSummary>): DeclarationSummary {
  return {
    id: 'id-1',
    version: 2,
    trackingNumber: '1ZALL001',
    declarationType: 'OB',
    shipmentType: 1,
    status: 2,
    draftStatus: 1,
    declarationStatus: null,
    customerId: 'c-1',
    username: 'acme',
    companyName: 'ACME Trading',
    port: 'PVG',
    slic: 'SHA01',
    serviceType: '065',
    estimatedPickupTime: null,
    goodsCount: 1,
    totalValue: 100,
    currency: 'USD',
    consigneeName: 'John Smith',
    createdAt: '2026-11-22T12:39:19+08:00',
    updatedAt: '2026-11-23T09:15:00+08:00',
    ...over,
  };
}

const records = [
  summary({}),
  summary({
    id: 'id-2',
    trackingNumber: '1ZALL002',
    declarationType: 'IC',
    status: 4,
    customsReceipt: 'C',
    customsReceiptAt: '2026-11-28T12:00:00+08:00',
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

let restore: () => void = () => {};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/v1/declarations') return ok({ records, total: 2 });
      return ok([]);
    }),
  );
});

afterEach(async () => {
  restore();
  restore = () => {};
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null });
  await i18n.changeLanguage('zh');
});

function renderPage(page: ReactElement, role: Role, entry: string) {
  useSessionStore.setState({ role, permissions: [] });
  const path = entry.split('?')[0];
  const router = createMemoryRouter([{ path, element: page }], { initialEntries: [entry] });
  return renderWithProviders(<RouterProvider router={router} />, (ui) => (
    <ModalsProvider>{ui}</ModalsProvider>
  ));
}

describe('all declarations', () => {
  it('names each type, with the code for staff', async () => {
    renderPage(<AllDeclarationsPage />, 'OPERATOR', '/all');
    const table = await screen.findByRole('table', { name: '全部报关单' });
    expect(await within(table).findByText('出口 B类（OB）')).toBeInTheDocument();
    expect(within(table).getByText('进口 C类（IC）')).toBeInTheDocument();
  });

  it('names each type without the code for a customer, in English', async () => {
    await i18n.changeLanguage('en');
    renderPage(<AllDeclarationsPage />, 'CUSTOMER', '/all');
    const table = await screen.findByRole('table', { name: 'All declarations' });
    expect(await within(table).findByText('Export class B')).toBeInTheDocument();
    expect(within(table).getByText('Import class C')).toBeInTheDocument();
    expect(within(table).queryByText(/\(OB\)/)).toBeNull();
  });

  it('shows a phone a card per declaration: tracking number, type by name, status with the receipt, date', async () => {
    restore = atPhoneWidth();
    renderPage(<AllDeclarationsPage />, 'CUSTOMER', '/all');
    const list = await screen.findByRole('list', { name: '全部报关单' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = await within(list).findAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const held = cards[1];
    expect(within(held).getByRole('link', { name: '1ZALL002' })).toHaveAttribute(
      'href',
      '/customs-clearance-supply/detail-c/0?id=id-2',
    );
    expect(held.querySelector('[data-card-field="declarationType"]')).toHaveTextContent('进口 C类');
    const status = held.querySelector('[data-card-field="status"]') as HTMLElement;
    expect(status).toHaveTextContent('单证异常待补充');
    expect(status.querySelector('[data-receipt="C"]')).toHaveTextContent('查验');
    expect(held.querySelector('[data-card-field="updatedAt"]')).toHaveTextContent(
      '2026-11-23 09:15',
    );
  });
});

describe('status query', () => {
  it('shows a phone a card per answer with the type by name and the code for staff', async () => {
    restore = atPhoneWidth();
    renderPage(<StatusQueryPage />, 'OPERATOR', '/q?trackingNumber=1ZALL002,1ZALL001');
    const list = await screen.findByRole('list', { name: '报关单状态查询' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    // In the order asked.
    expect(cards[0].querySelector('[data-card-title]')).toHaveTextContent('1ZALL002');
    expect(cards[0].querySelector('[data-card-field="declarationType"]')).toHaveTextContent(
      '进口 C类（IC）',
    );
    expect(cards[1].querySelector('[data-card-field="declarationType"]')).toHaveTextContent(
      '出口 B类（OB）',
    );
    expect(cards[0].querySelector('[data-card-field="milestones"]')).not.toBeNull();
  });
});
