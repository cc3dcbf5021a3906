import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import RecipientLinkPage from '../pages/RecipientLinkPage';

vi.setConfig({ testTimeout: 30_000 });

if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });

const envelope = (status: number, code: number, data: unknown) =>
  new Response(JSON.stringify({ code, message: code === 200 ? 'ok' : 'refused', data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const view = {
  exceptionId: 'e-1',
  status: 2,
  trackingNumber: '1ZLINK001',
  requested: ['commercialInvoice'],
  otherDocuments: ['photo of the label'],
  proposedChanges: [
    {
      kind: 'htsCode',
      field: 'declarationGoodsInfo[0].goodsCode',
      old: '6109100000',
      new: '8471414000',
    },
  ],
  documents: [],
  expiresAt: '2026-12-09T10:00:00+08:00',
};

interface Call {
  path: string;
  method: string;
  token: string | null;
  body: unknown;
}
let calls: Call[] = [];
let answer: () => Response = () => envelope(200, 200, view);

beforeEach(() => {
  calls = [];
  answer = () => envelope(200, 200, view);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const headers = new Headers(init?.headers);
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
      calls.push({ path: url.pathname, method, token: headers.get('X-Link-Token'), body });
      if (method === 'POST') return envelope(200, 200, { id: 'e-1', version: 5, position: 9 });
      return answer();
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

function renderAt(entry: string) {
  const router = createMemoryRouter([{ path: '/temporarily', element: <RecipientLinkPage /> }], {
    initialEntries: [entry],
  });
  return renderWithProviders(<RouterProvider router={router} />);
}

describe('the recipient link page', () => {
  it('shows what is asked and sends the answer with the link token only', async () => {
    renderAt('/temporarily?token=a.b.c');
    expect(await screen.findByText(/1ZLINK001/)).toBeInTheDocument();
    expect(screen.getByText('photo of the label')).toBeInTheDocument();
    expect(screen.getByText('8471414000')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ path: '/api/v1/exception-link', token: 'a.b.c' });

    fireEvent.click(screen.getByRole('checkbox'));
    // No file for either requested document: the answer needs a reason for each.
    fireEvent.click(screen.getByRole('button', { name: /提交答复|Send my answer/ }));
    expect(await screen.findByTestId('link-error')).toHaveTextContent(
      /商业发票|Commercial invoice/,
    );
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    for (const [slot, reason] of [
      ['commercialInvoice', 'sent by post'],
      ['photo of the label', 'label torn off'],
    ]) {
      const box = document.querySelector(`[data-slot="${slot}"] textarea`) as HTMLTextAreaElement;
      fireEvent.change(box, { target: { value: reason } });
    }
    fireEvent.click(screen.getByRole('button', { name: /提交答复|Send my answer/ }));
    expect(await screen.findByTestId('link-notice')).toHaveTextContent(/已收到|received/);
    const post = calls.find((c) => c.method === 'POST');
    expect(post).toMatchObject({
      path: '/api/v1/exception-link/confirm',
      token: 'a.b.c',
      body: {
        confirmChanges: true,
        missing: [
          { document: 'commercialInvoice', reason: 'sent by post' },
          { document: 'photo of the label', reason: 'label torn off' },
        ],
      },
    });
  });

  it.each([
    [403, 403, null, /无效|not valid/],
    [409, 409, { reason: 'LINK_EXPIRED' }, /过期|expired/],
    [409, 409, { reason: 'LINK_USED' }, /已提交|already been used/],
    [409, 409, { reason: 'EXCEPTION_CLOSED' }, /不再等待|no longer waits/],
  ])('a refused link (%i %o) gets a page that says why', async (status, code, data, text) => {
    answer = () => envelope(status, code, data);
    renderAt('/temporarily?token=a.b.c');
    await waitFor(() => expect(screen.getByTestId('link-notice')).toHaveTextContent(text));
    expect(calls.every((c) => c.method === 'GET')).toBe(true);
  });

  it('without a token it asks for the whole link and calls nothing', async () => {
    renderAt('/temporarily');
    expect(await screen.findByTestId('link-notice')).toHaveTextContent(/缺少|incomplete/);
    expect(calls).toHaveLength(0);
  });
});
