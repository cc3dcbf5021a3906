import { useState } from 'react';
import { fireEvent, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { atPhoneWidth } from '@/test/phoneWidth';
import { dataTableColumns } from './columns';
import { DataTable } from './DataTable';
import { pageWindow } from './pager';
import { useTableSearchParams } from './useTableSearchParams';

interface Row {
  id: string;
  trackingNumber: string;
}

const col = dataTableColumns<Row>();
const columns = [
  col.accessor('trackingNumber', { header: 'Tracking', meta: { sortField: 'trackingNumber' } }),
];

function Harness({ rows, total }: { rows: Row[]; total: number }) {
  const url = useTableSearchParams({ filterKeys: ['status'] as const });
  const [selected, setSelected] = useState<string[]>([]);
  const location = useLocation();
  return (
    <>
      <DataTable
        columns={columns}
        data={rows}
        total={total}
        getRowId={(r) => r.id}
        urlState={url}
        selectable
        selectedIds={selected}
        onSelectionChange={setSelected}
      />
      <output data-testid="search">{location.search}</output>
      <output data-testid="selected">{selected.join(',')}</output>
      <output data-testid="params">{JSON.stringify(url.apiParams)}</output>
    </>
  );
}

function renderTable(rows: Row[], total: number, entry = '/list') {
  const router = createMemoryRouter(
    [{ path: '/list', element: <Harness rows={rows} total={total} /> }],
    {
      initialEntries: [entry],
    },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

describe('pageWindow', () => {
  it('shows at most 5 pages around the current one', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 3)).toEqual([1, 2, 3]);
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5]);
    expect(pageWindow(10, 20)).toEqual([8, 9, 10, 11, 12]);
    expect(pageWindow(20, 20)).toEqual([16, 17, 18, 19, 20]);
  });
});

describe('DataTable', () => {
  it('shows "no data" when empty', () => {
    renderTable([], 0);
    expect(screen.getByText('暂无数据')).toBeInTheDocument();
    expect(screen.getByText('共 0 条')).toBeInTheDocument();
  });

  it('numbers rows across pages and keeps paging and sorting in the URL', () => {
    const rows = [
      { id: 'a', trackingNumber: '1Z001' },
      { id: 'b', trackingNumber: '1Z002' },
    ];
    renderTable(rows, 42, '/list?page=3&status=1');
    expect(screen.getByText('21')).toBeInTheDocument();
    expect(screen.getByText('22')).toBeInTheDocument();
    expect(JSON.parse(screen.getByTestId('params').textContent!)).toEqual({
      pageNo: 3,
      pageSize: 10,
      status: '1',
    });

    fireEvent.click(screen.getByRole('button', { name: '下一页' }));
    expect(screen.getByTestId('search').textContent).toBe('?page=4&status=1');

    fireEvent.click(screen.getByRole('button', { name: /按 Tracking 排序/ }));
    expect(screen.getByTestId('search').textContent).toBe('?status=1&sort=trackingNumber%2Casc');
  });

  it('selects rows', () => {
    renderTable([{ id: 'a', trackingNumber: '1Z001' }], 1);
    fireEvent.click(screen.getByRole('checkbox', { name: '选择第 1 行' }));
    expect(screen.getByTestId('selected').textContent).toBe('a');
  });
});

interface Shipment {
  id: string;
  trackingNumber: string;
  status: string;
  port: string;
}

const shipmentCol = dataTableColumns<Shipment>();
const shipmentColumns = [
  shipmentCol.accessor('trackingNumber', { header: 'Tracking' }),
  shipmentCol.accessor('status', { header: 'Status' }),
  shipmentCol.accessor('port', { header: 'Port', meta: { card: false } }),
  shipmentCol.display({
    id: 'actions',
    header: 'Actions',
    cell: ({ row }) => <button type="button">Open {row.original.trackingNumber}</button>,
  }),
];
const shipments: Shipment[] = [
  { id: 'a', trackingNumber: '1Z001', status: 'Submitted', port: 'PVG' },
  { id: 'b', trackingNumber: '1Z002', status: 'Draft', port: 'CAN' },
];

function ShipmentHarness({ paged }: { paged: boolean }) {
  const url = useTableSearchParams({ filterKeys: [] as const });
  const [selected, setSelected] = useState<string[]>([]);
  return (
    <>
      <DataTable
        caption="Shipments"
        columns={shipmentColumns}
        data={shipments}
        total={12}
        getRowId={(r) => r.id}
        urlState={paged ? url : undefined}
        selectable
        selectedIds={selected}
        onSelectionChange={setSelected}
      />
      <output data-testid="selected">{selected.join(',')}</output>
    </>
  );
}

function renderShipments(paged = true) {
  const router = createMemoryRouter(
    [{ path: '/list', element: <ShipmentHarness paged={paged} /> }],
    { initialEntries: ['/list'] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

describe('DataTable on a phone', () => {
  let restore: () => void = () => {};
  afterEach(() => restore());

  it('shows a table at desktop widths', () => {
    renderShipments();
    expect(screen.getByRole('table', { name: 'Shipments' })).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Shipments' })).toBeNull();
  });

  it('shows each row as a card from the same columns: title, labelled lines, actions; columns left off cards are not shown', async () => {
    restore = atPhoneWidth();
    renderShipments();
    const list = await screen.findByRole('list', { name: 'Shipments' });
    expect(screen.queryByRole('table')).toBeNull();
    const cards = within(list).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    const first = cards[0];
    expect(first.querySelector('[data-card-title]')).toHaveTextContent('1Z001');
    const status = first.querySelector('[data-card-field="status"]');
    expect(status).toHaveTextContent('Status');
    expect(status).toHaveTextContent('Submitted');
    expect(first.querySelector('[data-card-field="port"]')).toBeNull();
    expect(within(first).queryByText('PVG')).toBeNull();
    expect(first.querySelector('[data-card-field="actions"]')).toBeNull();
    expect(
      within(first.querySelector('[data-card-actions]') as HTMLElement).getByRole('button', {
        name: 'Open 1Z001',
      }),
    ).toBeInTheDocument();
    // The running number is a table's; a card is named by its title.
    expect(within(first).queryByText('1')).toBeNull();
    // Paging stays below the cards.
    expect(screen.getByText('共 12 条')).toBeInTheDocument();
  });

  it('selects a row from its card', async () => {
    restore = atPhoneWidth();
    renderShipments();
    const list = await screen.findByRole('list', { name: 'Shipments' });
    const second = within(list).getAllByRole('listitem')[1];
    fireEvent.click(within(second).getByRole('checkbox', { name: '选择第 2 行' }));
    expect(screen.getByTestId('selected').textContent).toBe('b');
  });

  it('without URL state shows no pager and no sort toggles', () => {
    renderShipments(false);
    expect(screen.getByRole('table', { name: 'Shipments' })).toBeInTheDocument();
    expect(screen.queryByText('共 12 条')).toBeNull();
    expect(screen.queryByRole('button', { name: /排序/ })).toBeNull();
  });
});
