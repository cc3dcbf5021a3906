import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import AiCreatePage from '@/features/ai-create/pages/AiCreatePage';
import { sampleDraft } from './sample';

vi.setConfig({ testTimeout: 60_000 });

if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

interface Call {
  path: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}
let calls: Call[] = [];
let proposeAnswer: () => Response = () => ok(sampleDraft());
let getAnswer: () => Response = () => ok(sampleDraft());

beforeEach(async () => {
  await i18n.changeLanguage('en');
  calls = [];
  proposeAnswer = () => ok(sampleDraft());
  getAnswer = () => ok(sampleDraft());
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : (init?.body ?? null);
      calls.push({
        path: url.pathname,
        method,
        headers: (init?.headers ?? {}) as Record<string, string>,
        body,
      });
      if (url.pathname === '/api/v1/customers')
        return ok({
          records: [{ customerId: 'cust-1', username: 'acme', companyName: 'ACME Trading' }],
          total: 1,
        });
      if (url.pathname === '/api/v1/ai-drafts' && method === 'POST') return proposeAnswer();
      if (url.pathname === '/api/v1/ai-drafts/draft-1' && method === 'GET') return getAnswer();
      if (url.pathname === '/api/v1/ai-drafts/draft-1/accept')
        return ok({ id: 'decl-9', version: 1, position: 11 });
      return ok([]);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

function renderPage(search = '') {
  const path = '/customers-profile/ai-create';
  const router = createMemoryRouter(
    [
      {
        path,
        handle: { name: 'ai-create', fullPath: path, navigable: true, meta: {} },
        element: <AiCreatePage />,
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path + search] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

async function chooseCustomer() {
  const input = screen
    .getAllByLabelText(/^Customer/)
    .find((e): e is HTMLInputElement => e instanceof HTMLInputElement)!;
  input.focus();
  fireEvent.change(input, { target: { value: 'acme' } });
  fireEvent.click(await screen.findByRole('option', { name: /acme/, hidden: true }));
}

async function propose() {
  renderPage();
  await chooseCustomer();
  fireEvent.change(screen.getByLabelText(/Or paste text/), {
    target: { value: 'AWB No.: 1Z999AA10123456784' },
  });
  fireEvent.click(screen.getByRole('button', { name: 'Read and propose' }));
  await screen.findByText('Review the proposal');
}

describe('AiCreatePage', () => {
  it('asks for the customer, then for a document or text, before sending', async () => {
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Read and propose' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose the customer');
    await chooseCustomer();
    fireEvent.click(screen.getByRole('button', { name: 'Read and propose' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Drop a file or paste some text'),
    );
    expect(calls.filter((c) => c.path === '/api/v1/ai-drafts')).toHaveLength(0);
  });

  it('sends the multipart proposal and shows the server refusal naming the file', async () => {
    proposeAnswer = () =>
      new Response(
        JSON.stringify({
          code: 400,
          message: 'Bad request',
          data: [{ field: 'files', message: 'scan.png: no text recognised' }],
        }),
        { status: 400, headers: { 'Content-Type': 'application/json' } },
      );
    renderPage();
    await chooseCustomer();
    fireEvent.change(screen.getByLabelText(/Or paste text/), { target: { value: 'hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Read and propose' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('scan.png: no text recognised');
    const sent = calls.find((c) => c.path === '/api/v1/ai-drafts');
    expect(sent?.body).toBeInstanceOf(FormData);
    const form = sent?.body as FormData;
    expect(form.get('customerId')).toBe('cust-1');
    expect(form.get('declarationType')).toBe('IC');
    expect(form.get('text')).toBe('hello');
  });

  it('shows lines, sources, confidence, class and warnings, and saves the review', async () => {
    await propose();
    // The documents' lines beside the fields.
    expect(screen.getByText('Gross Weight: 12.5 KG')).toBeInTheDocument();
    // Sources with their location, and confidence.
    const gross = document.querySelector('[data-field="grossWeight"]') as HTMLElement;
    expect(within(gross).getByText('Document')).toBeInTheDocument();
    expect(within(gross).getByText('invoice.pdf page 1 line 14')).toBeInTheDocument();
    expect(within(gross).getByText('90%')).toBeInTheDocument();
    const code = document.querySelector(
      '[data-field="declarationGoodsInfo[0].goodsCode"]',
    ) as HTMLElement;
    expect(within(code).getByText('Product library')).toBeInTheDocument();
    expect(screen.getByText('Proposed class: C')).toBeInTheDocument();
    expect(screen.getByText(/value 440.00 USD/)).toBeInTheDocument();
    expect(screen.getByText(/quantity x price is not the amount/)).toBeInTheDocument();

    // Correct the gross weight, reject the contract number, accept the rest.
    fireEvent.click(within(gross).getByRole('button', { name: /^Edit/ }));
    const input = within(gross).getByRole('textbox');
    fireEvent.change(input, { target: { value: '13.1' } });
    const contract = document.querySelector('[data-field="contractNo"]') as HTMLElement;
    fireEvent.click(within(contract).getByRole('button', { name: /^Reject/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Accept all' }));
    expect(screen.getByTestId('review-counts')).toHaveTextContent(
      '0 pending · 3 accepted · 1 edited · 1 rejected',
    );
    expect(contract.dataset.decision).toBe('rejected');

    fireEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/customs-clearance/detail-c/0?id=decl-9',
      ),
    );
    const accept = calls.find((c) => c.path === '/api/v1/ai-drafts/draft-1/accept');
    expect(accept?.headers['If-Match']).toBe('1');
    expect(accept?.body).toMatchObject({
      trackingNumber: '1Z999AA10123456784',
      grossWeight: 13.1,
      contractNo: null,
      declarationGoodsInfo: [{ goodsName: 'Bluetooth headphones', goodsCode: '8518300000' }],
    });
  });

  it('shows the refusal of the reviewed form naming the field', async () => {
    await propose();
    vi.mocked(fetch).mockImplementationOnce(
      async () =>
        new Response(
          JSON.stringify({
            code: 400,
            message: 'Bad request',
            data: [{ field: 'trackingNumber', message: 'required' }],
          }),
          { status: 400, headers: { 'Content-Type': 'application/json' } },
        ),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save as draft' }));
    expect(await screen.findByText(/: required$/)).toBeInTheDocument();
    expect(screen.getByText('Review the proposal')).toBeInTheDocument();
  });

  it('reopens a stored proposal named in the address', async () => {
    renderPage('?id=draft-1');
    expect(await screen.findByText('Gross Weight: 12.5 KG')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/v1/ai-drafts/draft-1')).toHaveLength(1);
  });

  it('an accepted proposal links to its declaration instead of a second review', async () => {
    getAnswer = () => ok({ ...sampleDraft(), declarationId: 'decl-9' });
    renderPage('?id=draft-1');
    const link = await screen.findByRole('link', { name: 'Open the declaration' });
    expect(link).toHaveAttribute('href', '/customs-clearance/detail-c/0?id=decl-9');
    expect(screen.queryByRole('button', { name: 'Save as draft' })).toBeNull();
  });
});
