// The welcome dashboard counts the last days of the Asia/Shanghai calendar, not the browser's.
import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { setBrowserTimeZone } from '@/test/timeZone';
import { WelcomeDashboard } from '../components/WelcomeDashboard';

let restoreZone = () => {};
let calls: URL[] = [];

beforeEach(() => {
  restoreZone = setBrowserTimeZone('UTC');
  vi.useFakeTimers({ toFake: ['Date'] });
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      calls.push(new URL(String(input instanceof Request ? input.url : input), 'http://x'));
      return new Response(
        JSON.stringify({
          code: 200,
          message: 'ok',
          data: { byStatus: [], perDay: [] },
          refreshed: false,
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  restoreZone();
});

describe('the admin welcome dashboard', () => {
  it('asks for the counts up to today in Shanghai when the browser clock is UTC at 17:00', async () => {
    vi.setSystemTime(new Date('2026-11-24T17:00:00Z'));
    renderWithProviders(
      <MemoryRouter>
        <WelcomeDashboard area="staff" />
      </MemoryRouter>,
    );
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    const counts = calls.find((u) => u.pathname === '/api/v1/declarations/counts');
    expect(counts?.searchParams.get('toDate')).toBe('20261125');
    expect(counts?.searchParams.get('fromDate')).toBe('20261027'); // 30 days, today included;
    expect(screen.getAllByRole('link').length).toBeGreaterThan(0);
  });
});
