// A home page leads with what waits on the person: the customer's exceptions and returned
// declarations, staff's counts to act on; each links to where it is done.
import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { NeedsActionCard } from '../components/NeedsActionCard';

type Answer = { records: object[]; total: number };
let answer: (url: URL) => Answer;

const page = (records: object[], total = records.length): Answer => ({ records, total });

beforeEach(() => {
  answer = () => page([]);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input instanceof Request ? input.url : input), 'http://x');
      return new Response(
        JSON.stringify({ code: 200, message: 'ok', data: answer(url), refreshed: false }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const render = (ui: React.ReactNode) => renderWithProviders(<MemoryRouter>{ui}</MemoryRouter>);

describe('what needs action', () => {
  it('shows a customer the exceptions waiting on them and what was returned to them', async () => {
    answer = (url) => {
      const status = url.searchParams.get('status');
      if (url.pathname === '/api/v1/clearance-exceptions' && status === '3')
        return page([
          {
            id: 'e-1',
            trackingNumber: '1ZWAIT0001',
            status: 3,
            overdue: true,
            shipmentType: 1,
            exceptionSummary: 'Send the invoice',
          },
        ]);
      if (url.pathname === '/api/v1/declarations' && status === '11')
        return page([
          { id: 'd-1', trackingNumber: '1ZBACK0001', declarationType: 'OC', status: 11 },
        ]);
      return page([]);
    };
    render(<NeedsActionCard area="customer" />);
    const card = await screen.findByRole('region', { name: '待您处理' });
    expect(await within(card).findByRole('link', { name: '1ZWAIT0001' })).toHaveAttribute(
      'href',
      '/customer-exception/detail?id=e-1',
    );
    expect(within(card).getByText('已超时')).toBeInTheDocument();
    expect(within(card).getByText('等待您处理的清关异常：1')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: '1ZBACK0001' })).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: '修改并重新提交' })).toBeInTheDocument();
  });

  it('says so when nothing waits on the customer', async () => {
    render(<NeedsActionCard area="customer" />);
    expect(await screen.findByText('目前没有等待您处理的事项')).toBeInTheDocument();
  });

  it('gives staff the counts to act on, each linking to its list', async () => {
    answer = (url) => {
      const status = url.searchParams.get('status');
      if (url.pathname === '/api/v1/clearance-exceptions')
        return status === '4'
          ? page([], 3)
          : status === '2'
            ? page([{ id: 'o', status: 2, overdue: true, shipmentType: 0 }])
            : page([]);
      return page([], status === '10' ? 2 : status === '4' ? 5 : 7);
    };
    render(<NeedsActionCard area="staff" exceptions />);
    expect(await screen.findByRole('link', { name: '待审核的异常: 3' })).toHaveAttribute(
      'href',
      '/clearance-exception/export?status=4',
    );
    expect(await screen.findByRole('link', { name: '客户超时未处理的异常: 1' })).toHaveAttribute(
      'href',
      '/clearance-exception/import',
    );
    expect(await screen.findByRole('link', { name: '海关退回: 2' })).toHaveAttribute(
      'href',
      '/customs-clearance/all?status=10',
    );
    expect(await screen.findByRole('link', { name: '单证异常待补充: 5' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: '待审核的申报: 7' })).toBeInTheDocument();
  });
});
