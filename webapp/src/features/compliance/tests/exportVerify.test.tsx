import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import ChainPage from '@/features/compliance/pages/ChainPage';
import LogPage from '@/features/compliance/pages/LogPage';
import type { VerificationRun } from '../api/types';
import { percentDone } from '../model/verification';

const envelope = (status: number, data: unknown, message = 'ok') =>
  new Response(JSON.stringify({ code: status, message, data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

interface Call {
  url: URL;
  method: string;
  body: unknown;
}
let calls: Call[] = [];
let answer: (call: Call) => Response;

beforeEach(async () => {
  calls = [];
  await i18n.changeLanguage('en');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const call = {
        url: new URL(String(input), 'http://localhost'),
        method: init?.method ?? 'GET',
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
      };
      calls.push(call);
      return answer(call);
    }),
  );
  URL.createObjectURL = vi.fn(() => 'blob:x');
  URL.revokeObjectURL = vi.fn();
  useSessionStore.setState({ role: 'COMPLIANCE', permissions: ['audit:read', 'audit:export'] });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [] });
});

function render(path: string, element: React.ReactElement, entry: string) {
  const router = createMemoryRouter([{ path, element }], { initialEntries: [entry] });
  return renderWithProviders(<RouterProvider router={router} />);
}

vi.setConfig({ testTimeout: 20_000 });

const run = (over: Partial<VerificationRun> = {}): VerificationRun => ({
  id: 'run-1',
  state: 'running',
  startedBy: 'auditor',
  startedAt: '2026-11-25T04:00:00+00:00',
  finishedAt: null,
  done: 40,
  total: 100,
  verifiedTo: null,
  sealedTo: null,
  sealsChecked: null,
  unchained: null,
  firstBreak: null,
  error: null,
  ...over,
});

describe('the export of the log', () => {
  it('posts the filters of the URL and saves the file under the server name', async () => {
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.download);
    });
    answer = (call) =>
      call.url.pathname === '/api/v1/audit/exports'
        ? new Response('{"t":"manifest"}\n', {
            status: 200,
            headers: {
              'Content-Type': 'application/x-ndjson',
              'Content-Disposition':
                'attachment; filename="audit-export-1125-1200.jsonl"; filename*=UTF-8\'\'audit-export-1125-1200.jsonl',
            },
          })
        : envelope(200, { records: [], nextBefore: null });
    render(
      '/compliance/log',
      <LogPage />,
      '/compliance/log?trackingNumber=TN-1&from=2026-11-25T00%3A00%3A00.000Z',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Download signed log' }));
    await waitFor(() => expect(saved).toEqual(['audit-export-1125-1200.jsonl']));
    const posted = calls.find((c) => c.url.pathname === '/api/v1/audit/exports');
    expect(posted?.method).toBe('POST');
    expect(posted?.body).toEqual({
      trackingNumber: 'TN-1',
      from: '2026-11-25T00:00:00.000Z',
      hideReads: true,
    });
    click.mockRestore();
  });

  it('shows the refusal of a filter that selects too much', async () => {
    answer = (call) =>
      call.url.pathname === '/api/v1/audit/exports'
        ? envelope(
            400,
            [{ field: 'from', message: 'narrow it' }],
            'the filter selects more than an export holds',
          )
        : envelope(200, { records: [], nextBefore: null });
    render('/compliance/log', <LogPage />, '/compliance/log');
    fireEvent.click(await screen.findByRole('button', { name: 'Download signed log' }));
    expect(
      await screen.findByText('the filter selects more than an export holds'),
    ).toBeInTheDocument();
  });
});

describe('the background verification', () => {
  it('starts a run, shows its progress while polling, then its result', async () => {
    let runs: VerificationRun[] = [];
    let polls = 0;
    answer = (call) => {
      const p = call.url.pathname;
      if (p === '/api/v1/audit/verifications' && call.method === 'POST') {
        runs = [run()];
        return envelope(200, runs[0]);
      }
      if (p === '/api/v1/audit/verifications') {
        polls += 1;
        if (runs.length && polls > 2) {
          runs = [
            run({
              state: 'held',
              done: 100,
              verifiedTo: 118,
              sealedTo: 100,
              sealsChecked: 3,
              finishedAt: '2026-11-25T04:00:05+00:00',
            }),
          ];
        }
        return envelope(200, runs);
      }
      if (p.endsWith('/public-key'))
        return envelope(200, { algorithm: 'Ed25519', publicKey: 'ab' });
      return envelope(200, { headPosition: 1, chained: 1, chainedTo: 1, seals: 0, lastSeal: null });
    };
    render('/compliance/chain', <ChainPage />, '/compliance/chain');
    expect(await screen.findByText('Not verified from here yet')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Verify now' }));
    expect(await screen.findByText('40 of 100 chain rows verified')).toBeInTheDocument();
    expect(screen.getByText('Running')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verify now' })).toBeDisabled();
    expect(await screen.findByText('Holds', {}, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.getByTestId('verified-to')).toHaveTextContent('118');
    expect(screen.getByText('100 of 100 chain rows verified')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('names the first break of a broken chain, and a refused second start', async () => {
    answer = (call) => {
      const p = call.url.pathname;
      if (p === '/api/v1/audit/verifications' && call.method === 'POST')
        return envelope(
          409,
          { reason: 'VERIFICATION_RUNNING' },
          'a verification is running already (x)',
        );
      if (p === '/api/v1/audit/verifications')
        return envelope(200, [
          run({
            state: 'broken',
            done: 4,
            verifiedTo: 4,
            firstBreak: { position: 5, kind: 'changed', detail: 'the bytes differ' },
          }),
        ]);
      if (p.endsWith('/public-key'))
        return envelope(200, { algorithm: 'Ed25519', publicKey: 'ab' });
      return envelope(200, { headPosition: 1, chained: 1, chainedTo: 1, seals: 0, lastSeal: null });
    };
    render('/compliance/chain', <ChainPage />, '/compliance/chain');
    expect(await screen.findByText('Position 5: changed (the bytes differ)')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Verify now' }));
    expect(await screen.findByText('a verification is running already (x)')).toBeInTheDocument();
  });

  it('computes the percent done', () => {
    expect(percentDone({ done: 1, total: 3, state: 'running' })).toBe(33);
    expect(percentDone({ done: 0, total: 0, state: 'running' })).toBe(0);
    expect(percentDone({ done: 0, total: 0, state: 'held' })).toBe(100);
    expect(percentDone({ done: 9, total: 3, state: 'held' })).toBe(100);
  });
});
