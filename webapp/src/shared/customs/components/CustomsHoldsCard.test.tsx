import { screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { CustomsHoldsCard } from './CustomsHoldsCard';

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: URL[] = [];
let answer: unknown;

beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(url);
      return ok(answer);
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const hold = (over: Record<string, unknown>) => ({
  id: 'd-1',
  trackingNumber: '1ZHELD001',
  declarationType: 'OC',
  status: 2,
  username: 'acme',
  companyName: null,
  reason: 'C',
  since: '2026-11-24T10:00:00+08:00',
  ageSecs: 4 * 86400 + 60,
  ...over,
});

describe('CustomsHoldsCard', () => {
  it('counts what customs holds by reason and age and links each to its declaration', async () => {
    answer = {
      records: [
        hold({}),
        hold({ id: 'd-2', trackingNumber: '1ZHELD002', reason: 'silent', ageSecs: 30 * 3600 }),
      ],
      total: 3,
      counts: [
        { reason: 'C', underOneDay: 0, oneToThreeDays: 0, overThreeDays: 1 },
        { reason: 'silent', underOneDay: 0, oneToThreeDays: 2, overThreeDays: 0 },
      ],
    };
    renderWithProviders(
      <MemoryRouter>
        <CustomsHoldsCard />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: '1ZHELD001' });
    expect(link.getAttribute('href')).toContain('id=d-1');
    expect(calls[0].searchParams.get('silentHours')).toBe('24');
    const silent = document.querySelector('[data-hold-reason="silent"]') as HTMLElement;
    expect(within(silent).getByText('久无回执')).toBeInTheDocument();
    expect(within(silent).getByText('2')).toBeInTheDocument();
    const sp1 = document.querySelector('[data-hold-reason="Sp1"]') as HTMLElement;
    expect(within(sp1).getAllByText('0')).toHaveLength(3);
    expect(screen.getByText('4 天')).toBeInTheDocument();
    expect(screen.getByText('1 天')).toBeInTheDocument();
    expect(screen.getByText('另有 1 份')).toBeInTheDocument();
  });

  it('says when customs holds nothing', async () => {
    answer = { records: [], total: 0, counts: [] };
    renderWithProviders(
      <MemoryRouter>
        <CustomsHoldsCard />
      </MemoryRouter>,
    );
    expect(await screen.findByText('目前没有被海关扣留的报关单')).toBeInTheDocument();
  });
});
