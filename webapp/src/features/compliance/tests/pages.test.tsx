import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import ChainPage from '@/features/compliance/pages/ChainPage';
import LogPage from '@/features/compliance/pages/LogPage';
import StreamPage from '@/features/compliance/pages/StreamPage';
import type { AuditEvent } from '../api/types';

const STREAM = '0b6c1d3e-1111-4222-8333-444455556666';

const event = (position: number, over: Partial<AuditEvent> = {}): AuditEvent => ({
  position,
  streamType: 'declaration',
  streamId: STREAM,
  streamVersion: position,
  eventId: `e-${position}`,
  eventType: 'DeclarationCreated',
  schemaVersion: 1,
  recordedAt: `2026-11-25T04:0${position}:00.123456+00:00`,
  payload: { trackingNumber: 'TN-1', data: { consignee: { name: 'ACME' }, weight: 2 } },
  metadata: {
    actorName: 'acme',
    actorRole: 'CUSTOMER',
    correlationId: `corr-${position}`,
    causationId: null,
  },
  ...over,
});

const envelope = (status: number, data: unknown, message = 'ok') =>
  new Response(JSON.stringify({ code: status, message, data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: URL[] = [];
let answer: (url: URL) => Response;

beforeEach(async () => {
  calls = [];
  await i18n.changeLanguage('en');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(url);
      return answer(url);
    }),
  );
  useSessionStore.setState({ role: 'COMPLIANCE', permissions: ['audit:read'] });
});

afterEach(() => {
  vi.unstubAllGlobals();
  useSessionStore.setState({ role: null, permissions: [] });
});

function render(path: string, element: React.ReactElement, entry: string) {
  const router = createMemoryRouter(
    [
      { path, element },
      { path: '/compliance/stream', element: <div>stream page {STREAM}</div> },
    ],
    { initialEntries: [entry] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

vi.setConfig({ testTimeout: 20_000 });

describe('LogPage', () => {
  it('filters by tracking number, pages older and newer with the cursor', async () => {
    answer = (url) => {
      const before = url.searchParams.get('before');
      if (before === '3') return envelope(200, { records: [event(2), event(1)], nextBefore: null });
      return envelope(200, {
        records: [event(4, { eventType: 'DeclarationReviewed' }), event(3)],
        nextBefore: 3,
      });
    };
    render('/compliance/log', <LogPage />, '/compliance/log');
    expect(await screen.findByText('DeclarationReviewed')).toBeInTheDocument();
    expect(screen.getByText('corr-4')).toBeInTheDocument();
    expect(screen.getAllByText('Customer').length).toBeGreaterThan(0);

    fireEvent.change(screen.getByLabelText('Tracking number'), { target: { value: ' TN-1 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(calls.at(-1)?.searchParams.get('trackingNumber')).toBe('TN-1'));
    // Empty filters are not sent (customerId must be a UUID when present).
    expect(calls.at(-1)?.searchParams.has('customerId')).toBe(false);

    const newer = screen.getByRole('button', { name: 'Newer' });
    expect(newer).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Older' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Older' }));
    await waitFor(() => expect(calls.at(-1)?.searchParams.get('before')).toBe('3'));
    expect(calls.at(-1)?.searchParams.get('trackingNumber')).toBe('TN-1');
    expect(await screen.findByText('Page 2')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Older' })).toBeDisabled());

    await waitFor(() => expect(screen.getByRole('button', { name: 'Newer' })).toBeEnabled());
    fireEvent.click(screen.getByRole('button', { name: 'Newer' }));
    await waitFor(() => expect(calls.at(-1)?.searchParams.has('before')).toBe(false));
    expect(await screen.findByText('Page 1')).toBeInTheDocument();
  });

  it('shows a declaration edit per goods line: which fields changed from what to what, lines added and removed', async () => {
    const edited = event(2, {
      eventType: 'DeclarationEdited',
      payload: {
        data: { grossWeight: 2.5 },
        changes: [
          { field: 'declarationGoodsInfo[0].goodsCode', old: '8517130000', new: '8517623600' },
          { field: 'grossWeight', old: 1.5, new: 2.5 },
          {
            field: 'declarationGoodsInfo[2]',
            old: null,
            new: { goodsName: 'Cable', goodsCode: '' },
          },
          { field: 'declarationGoodsInfo[1]', old: { goodsName: 'Charger' }, new: null },
        ],
      },
    });
    answer = () => envelope(200, { records: [edited], nextBefore: null });
    render('/compliance/log', <LogPage />, '/compliance/log');
    fireEvent.click(await screen.findByRole('button', { name: 'Payload' }));
    const diff = await screen.findByTestId('event-changes');
    const changed = diff.querySelector('[data-line="declarationGoodsInfo[0]"]') as HTMLElement;
    expect(changed).toHaveAttribute('data-line-kind', 'changed');
    expect(changed).toHaveTextContent('Goods line 1');
    const code = changed.querySelector('[data-line-field="goodsCode"]') as HTMLElement;
    expect(code).toHaveTextContent(/HS/);
    expect(code.querySelector('[data-old]')).toHaveTextContent('8517130000');
    expect(code.querySelector('[data-new]')).toHaveTextContent('8517623600');
    const removed = diff.querySelector('[data-line="declarationGoodsInfo[1]"]') as HTMLElement;
    expect(removed).toHaveAttribute('data-line-kind', 'removed');
    expect(removed).toHaveTextContent('Goods line 2');
    expect(removed).toHaveTextContent('Charger');
    const added = diff.querySelector('[data-line="declarationGoodsInfo[2]"]') as HTMLElement;
    expect(added).toHaveAttribute('data-line-kind', 'added');
    expect(added).toHaveTextContent('Cable');
    // The empty field of the new line is left out.
    expect(added.querySelector('[data-line-field="goodsCode"]')).toBeNull();
    expect(diff.querySelector('[data-field="grossWeight"]')).toHaveTextContent(/1\.5.*2\.5/);
    // The whole payload stays below.
    expect(screen.getByTestId('field-list')).toBeInTheDocument();
  });

  it('shows no change list for an event of another stream', async () => {
    const customer = event(3, {
      eventType: 'CustomerUpdated',
      payload: { changes: [{ field: 'email', old: 'a@x.cn', new: 'b@x.cn' }] },
    });
    answer = () => envelope(200, { records: [customer], nextBefore: null });
    render('/compliance/log', <LogPage />, '/compliance/log');
    fireEvent.click(await screen.findByRole('button', { name: 'Payload' }));
    await screen.findByTestId('field-list');
    expect(screen.queryByTestId('event-changes')).toBeNull();
  });

  it('shows a payload as indented fields, and links a row to its stream', async () => {
    answer = () => envelope(200, { records: [event(1)], nextBefore: null });
    render('/compliance/log', <LogPage />, '/compliance/log');
    fireEvent.click(await screen.findByRole('button', { name: 'Payload' }));
    const list = await screen.findByTestId('field-list');
    expect(within(list).getByText('trackingNumber')).toBeInTheDocument();
    expect(within(list).getByText('TN-1')).toBeInTheDocument();
    const name = list.querySelector('[data-field="data.consignee.name"]');
    expect(name?.textContent).toContain('ACME');
    // Nested two levels: indented more than the top level.
    const pad = (path: string) =>
      parseInt(
        (list.querySelector(`[data-field="${path}"] td`) as HTMLElement).style.paddingLeft,
        10,
      );
    expect(pad('data.consignee.name')).toBeGreaterThan(pad('data.consignee'));
    expect(pad('data.consignee')).toBeGreaterThan(pad('trackingNumber'));
    expect(list.textContent).not.toContain('{"');

    fireEvent.click(screen.getByRole('link', { name: /declaration · v1/ }));
    expect(await screen.findByText(`stream page ${STREAM}`)).toBeInTheDocument();
  });

  it('shows the server error naming the field', async () => {
    answer = () =>
      envelope(
        400,
        [{ field: 'customerId', message: 'customerId is not a UUID' }],
        'customerId is not a UUID',
      );
    render('/compliance/log', <LogPage />, '/compliance/log?customerId=nope');
    expect(await screen.findByRole('alert')).toHaveTextContent('customerId is not a UUID');
    expect(calls[0].searchParams.get('customerId')).toBe('nope');
  });
});

describe('StreamPage', () => {
  const created = event(1, { payload: { status: 1 } });
  const reviewed = event(2, { eventType: 'DeclarationReviewed', payload: { status: 2 } });

  beforeEach(() => {
    answer = (url) => {
      if (url.pathname.endsWith('/diff'))
        return envelope(200, [{ field: 'status', from: 1, to: 2 }]);
      const asOf = url.searchParams.get('asOf');
      const early = asOf !== null && asOf < reviewed.recordedAt.slice(0, 19);
      return envelope(200, {
        streamId: STREAM,
        asOf: asOf ?? '2026-11-25T05:00:00+00:00',
        version: early ? 1 : 2,
        state: { status: early ? 1 : 2, data: { consignee: 'ACME' } },
        timeline: [created, reviewed],
      });
    };
  });

  it('shows the state now, then as of an earlier event', async () => {
    render('/compliance/stream', <StreamPage />, `/compliance/stream?id=${STREAM}`);
    expect(await screen.findByText(/version 2/)).toBeInTheDocument();
    expect(calls[0].pathname).toBe(`/api/v1/audit/streams/${STREAM}`);
    expect(calls[0].searchParams.has('asOf')).toBe(false);

    const rows = screen.getAllByRole('button', { name: 'State as of here' });
    fireEvent.click(rows[0]);
    await waitFor(() => expect(calls.at(-1)?.searchParams.get('asOf')).toBe(created.recordedAt));
    expect(await screen.findByText(/version 1/)).toBeInTheDocument();
    const state = screen.getByRole('region', { name: 'State' });
    expect(state.querySelector('[data-field="status"]')?.textContent).toContain('1');
    // The picker shows the chosen time.
    expect((screen.getByLabelText(/^As of/) as HTMLInputElement).value).toMatch(
      /^2026-11-2\dT\d\d:01:00\.123$/,
    );
  });

  it('sends a picked time as the end of its millisecond, and diffs two times', async () => {
    render('/compliance/stream', <StreamPage />, `/compliance/stream?id=${STREAM}`);
    await screen.findByText(/version 2/);
    fireEvent.change(screen.getByLabelText(/^As of/), {
      target: { value: '2026-11-25T12:00:00.500' },
    });
    await waitFor(() => expect(calls.at(-1)?.searchParams.get('asOf')).toMatch(/\.500999Z$/));

    fireEvent.click(screen.getByRole('button', { name: 'Compare' }));
    const diff = await screen.findByRole('table', { name: 'Diff' });
    const row = diff.querySelector('[data-field="status"]');
    expect(row?.textContent).toContain('1');
    expect(row?.textContent).toContain('2');
    const asked = calls.find((c) => c.pathname.endsWith('/diff'));
    expect(asked?.searchParams.get('from')).toMatch(/^2026-11-25T04:01:00\.123999Z$/);
    expect(asked?.searchParams.get('to')).toMatch(/^2026-11-25T04:02:00\.123999Z$/);
  });

  it('says so when no id is given', async () => {
    answer = () => envelope(200, null);
    render('/compliance/stream', <StreamPage />, '/compliance/stream');
    expect(await screen.findByText('No stream id given')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });
});

describe('ChainPage', () => {
  it('shows how far the chain is verified, the last seal and the public key', async () => {
    answer = (url) =>
      url.pathname.endsWith('/public-key')
        ? envelope(200, { algorithm: 'Ed25519', publicKey: 'ab'.repeat(32) })
        : envelope(200, {
            headPosition: 120,
            chained: 118,
            chainedTo: 118,
            seals: 3,
            lastSeal: {
              seq: 3,
              position: 100,
              hash: 'cd'.repeat(32),
              sealedAt: '2026-11-25T04:00:00+00:00',
              signature: 'ef'.repeat(64),
              signatureValid: true,
            },
          });
    render('/compliance/chain', <ChainPage />, '/compliance/chain');
    expect(await screen.findByTestId('chained-to')).toHaveTextContent('118');
    expect(screen.getByText('Events after position 118 are not chained yet')).toBeInTheDocument();
    expect(screen.getByTestId('seal-position')).toHaveTextContent('100');
    expect(screen.getByText('Signature valid')).toBeInTheDocument();
    expect(await screen.findByTestId('public-key')).toHaveTextContent('ab'.repeat(32));
  });

  it('warns when the last seal does not verify, and when there is none', async () => {
    let sealed = true;
    answer = (url) =>
      url.pathname.endsWith('/public-key')
        ? envelope(200, { algorithm: 'Ed25519', publicKey: '00' })
        : envelope(200, {
            headPosition: 5,
            chained: 5,
            chainedTo: 5,
            seals: sealed ? 1 : 0,
            lastSeal: sealed
              ? {
                  seq: 1,
                  position: 5,
                  hash: 'aa',
                  sealedAt: '2026-11-25T04:00:00+00:00',
                  signature: 'bb',
                  signatureValid: false,
                }
              : null,
          });
    render('/compliance/chain', <ChainPage />, '/compliance/chain');
    expect(await screen.findByText('Signature does NOT verify')).toBeInTheDocument();
    expect(screen.getByText('Chained up to the last event')).toBeInTheDocument();
    sealed = false;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('No seal yet')).toBeInTheDocument();
  });
});
