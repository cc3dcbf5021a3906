import { fireEvent, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { useSessionStore } from '@/lib/session';
import { renderWithProviders } from '@/test/render';
import AssistCreatePage from '@/features/assist-create/pages/AssistCreatePage';

// The walks render the whole declaration form in jsdom: slow on a busy machine.
vi.setConfig({ testTimeout: 120_000 });

if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener() {}, removeEventListener() {}, ready: Promise.resolve() },
  });

const ok = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data, refreshed: false }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

const earlier = {
  id: 'decl-old',
  version: 3,
  status: 3,
  declarationType: 'OC',
  shipmentType: 1,
  customerId: 'cust-acme',
  username: 'acme',
  trackingNumber: '1ZOLD0001',
  billNo: 'MAWB-1',
  shipperName: 'Li Lei',
  recipientName: 'John Smith',
  recipientAddress: '1 Main Street',
  currencyCode: 'USD',
  declarationGoodsInfo: [
    {
      goodsNo: 1,
      goodsCode: '6109100000',
      goodsName: 'T-shirt',
      goodsQuantity: 20,
      totalPrice: 170,
    },
  ],
};

const summary = {
  id: 'decl-old',
  version: 3,
  trackingNumber: '1ZOLD0001',
  declarationType: 'OC',
  shipmentType: 1,
  status: 3,
  customerId: 'cust-acme',
  username: 'acme',
  consigneeName: 'John Smith',
  totalValue: 170,
  currency: 'USD',
};

interface Call {
  path: string;
  method: string;
  search: string;
  body: Record<string, unknown> | null;
}
let calls: Call[] = [];

/** The server's check: the tracking number is required, nothing else is wrong. */
function checkOf(body: Record<string, unknown>) {
  const missing = !body.trackingNumber;
  const type = String(body.declarationType);
  const declared = type.slice(1);
  return {
    declarationType: type,
    valid: !missing,
    draftValid: !missing,
    judgedOn: '2026-11-27',
    problems: missing
      ? [
          {
            field: 'trackingNumber',
            message: 'trackingNumber: is required',
            rule: 'required',
            blocksDraft: true,
          },
        ]
      : [],
    class: {
      declared,
      proposed: 'C',
      agrees: declared === 'C',
      reasonZh: '货值 170 USD',
      reasonEn: 'value 170 USD = CNY 1207 at the day rate',
      valueCny: 1207,
    },
  };
}

beforeEach(async () => {
  await i18n.changeLanguage('en');
  calls = [];
  useSessionStore.setState({
    role: 'CUSTOMER',
    userinfo: { userName: 'acme', department: 'ACME Trading', isLocked: false },
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : null;
      calls.push({ path: url.pathname, method, search: url.search, body });
      if (url.pathname === '/api/v1/declarations' && method === 'GET')
        return ok({ records: [summary], total: 1 });
      if (url.pathname === '/api/v1/declarations/decl-old') return ok(earlier);
      if (url.pathname === '/api/v1/declarations/validate') return ok(checkOf(body));
      if (url.pathname === '/api/v1/declarations' && method === 'POST')
        return ok({ id: 'decl-new', version: 1, position: 42 });
      if (url.pathname === '/api/v1/declarations/decl-new/submit')
        return ok({ id: 'decl-new', version: 2, position: 43 });
      if (url.pathname === '/api/v1/customers')
        return ok({
          records: [{ customerId: 'cust-acme', username: 'acme', companyName: 'ACME Trading' }],
          total: 1,
        });
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

function renderPage() {
  const path = '/customs-clearance-supply/assist-to-create';
  const router = createMemoryRouter(
    [
      {
        path,
        handle: { name: 'supply-assist-to-create', fullPath: path, navigable: true, meta: {} },
        element: <AssistCreatePage />,
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [path] },
  );
  return renderWithProviders(<RouterProvider router={router} />);
}

const next = () => fireEvent.click(screen.getByRole('button', { name: 'Next' }));

describe('AssistCreatePage', () => {
  it('walks a customer from a copy to a saved draft, with the server check on the way', async () => {
    renderPage();
    // Step 1: a customer files for their own company.
    expect(screen.getByText(/filed for your company, ACME Trading/)).toBeInTheDocument();
    next();
    // Step 2: the type must be chosen.
    next();
    expect(await screen.findByRole('alert')).toHaveTextContent('Declaration type');
    fireEvent.click(screen.getByRole('radio', { name: /Export class C/ }));
    next();
    // Step 3: copy the earlier declaration.
    fireEvent.click(screen.getByRole('radio', { name: /Copy an earlier declaration/ }));
    next();
    expect(await screen.findByRole('alert')).toHaveTextContent('Choose the declaration to copy');
    fireEvent.click(await screen.findByRole('button', { name: 'Choose 1ZOLD0001' }));
    const list = calls.find((c) => c.path === '/api/v1/declarations' && c.method === 'GET')!;
    expect(new URLSearchParams(list.search).get('declarationType')).toBe('OC');
    next();

    // Step 4: the copy without its tracking number; the server names it under the field.
    const tracking = (await screen.findAllByLabelText(/^Tracking number/)).find(
      (e): e is HTMLInputElement => e instanceof HTMLInputElement,
    )!;
    expect(tracking.value).toBe('');
    expect(screen.getByDisplayValue('Li Lei')).toBeInTheDocument();
    await waitFor(
      () => expect(screen.getAllByText('trackingNumber: is required').length).toBeGreaterThan(0),
      { timeout: 3000 },
    );
    const firstCheck = calls.find((c) => c.path === '/api/v1/declarations/validate')!;
    expect(firstCheck.body).toMatchObject({ declarationType: 'OC', shipperName: 'Li Lei' });
    expect(firstCheck.body?.trackingNumber).toBeNull();
    expect(firstCheck.body).not.toHaveProperty('customerId');
    expect(screen.getByTestId('class-check')).toHaveTextContent('Class C proposed, as chosen');
    expect(screen.getByTestId('class-check')).toHaveTextContent('value 170 USD');

    fireEvent.change(tracking, { target: { value: '1ZNEW0001' } });
    await waitFor(
      () => expect(screen.getByTestId('check-status')).toHaveTextContent('ready to submit'),
      {
        timeout: 3000,
      },
    );
    expect(screen.queryByText('trackingNumber: is required')).not.toBeInTheDocument();
    next();

    // Step 5: save as draft, then the new declaration opens.
    fireEvent.click(await screen.findByRole('button', { name: 'Save draft' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/customs-clearance-supply/detail-c/1?id=decl-new',
      ),
    );
    const created = calls.find((c) => c.path === '/api/v1/declarations' && c.method === 'POST')!;
    expect(created.body).toMatchObject({
      declarationType: 'OC',
      trackingNumber: '1ZNEW0001',
      shipperName: 'Li Lei',
      billNo: null,
    });
    expect(created.body).not.toHaveProperty('customerId');
    expect(calls.some((c) => c.path.endsWith('/submit'))).toBe(false);
  });

  it('lets staff file for a chosen customer from the template, switch class and submit', async () => {
    useSessionStore.setState({ role: 'OPERATOR' });
    renderPage();
    const picker = screen
      .getAllByLabelText(/^Customer/)
      .find((e): e is HTMLInputElement => e instanceof HTMLInputElement)!;
    picker.focus();
    fireEvent.change(picker, { target: { value: 'acme' } });
    fireEvent.click(await screen.findByRole('option', { name: /acme/, hidden: true }));
    next();
    fireEvent.click(screen.getByRole('radio', { name: /Export class B/ }));
    next();
    fireEvent.click(screen.getByRole('radio', { name: /^Template/ }));
    expect(
      await screen.findByText('Parties and agent taken from the last declaration, 1ZOLD0001.'),
    ).toBeInTheDocument();
    next();
    // The template: the last declaration's parties, no tracking number, no goods.
    expect(await screen.findByDisplayValue('Li Lei')).toBeInTheDocument();
    await waitFor(
      () =>
        expect(
          calls.filter((c) => c.path === '/api/v1/declarations/validate').length,
        ).toBeGreaterThan(0),
      { timeout: 3000 },
    );
    const sent = calls.find((c) => c.path === '/api/v1/declarations/validate')!;
    expect(sent.body).toMatchObject({ customerId: 'cust-acme', declarationType: 'OB' });
    expect(sent.body?.trackingNumber).toBeNull();
    // The server proposes C for a form declared B: switching keeps the form.
    await waitFor(() =>
      expect(screen.getByTestId('class-check')).toHaveTextContent('Class C proposed; B chosen'),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Switch to OC' }));
    await waitFor(
      () =>
        expect(
          calls.some(
            (c) =>
              c.path === '/api/v1/declarations/validate' &&
              (c.body as { declarationType?: string })?.declarationType === 'OC',
          ),
        ).toBe(true),
      { timeout: 3000 },
    );
    expect(screen.getByDisplayValue('Li Lei')).toBeInTheDocument();
    const tracking = screen
      .getAllByLabelText(/^Tracking number/)
      .find((e): e is HTMLInputElement => e instanceof HTMLInputElement)!;
    fireEvent.change(tracking, { target: { value: '1ZSTAFF01' } });
    await waitFor(
      () => expect(screen.getByTestId('check-status')).toHaveTextContent('ready to submit'),
      { timeout: 3000 },
    );
    next();
    fireEvent.click(await screen.findByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(
        '/customs-clearance/detail-c/1?id=decl-new',
      ),
    );
    const created = calls.find((c) => c.path === '/api/v1/declarations' && c.method === 'POST')!;
    expect(created.body).toMatchObject({
      customerId: 'cust-acme',
      declarationType: 'OC',
      trackingNumber: '1ZSTAFF01',
      shipperName: 'Li Lei',
    });
    const submitted = calls.find((c) => c.path === '/api/v1/declarations/decl-new/submit')!;
    expect(submitted.method).toBe('POST');
  });

  it('keeps staff on the first step until a customer is chosen', async () => {
    useSessionStore.setState({ role: 'OPERATOR' });
    renderPage();
    next();
    expect(await screen.findByText('Choose the customer')).toBeInTheDocument();
    expect(screen.getByText('Customer', { selector: 'label' })).toBeInTheDocument();
  });
});
