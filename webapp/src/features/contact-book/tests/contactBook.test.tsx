import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { ContactBookEditor } from '@/shared/contact-book/components/ContactBookEditor';
import { fieldContacts, offeredFor, type SavedContact } from '@/shared/contact-book/model/contacts';

vi.setConfig({ testTimeout: 30_000 });

const book: SavedContact[] = [
  { channel: 'email', side: 'shipFrom', name: 'Ops', value: 'ops@acme.example.com', color: 'blue' },
  { channel: 'email', side: 'shipTo', name: 'Buyer', value: 'buyer@example.com', color: 'green' },
  { channel: 'wechat', side: 'shipTo', name: 'Li Lei', value: 'oAbCdEf123', color: 'gray' },
];

describe('the contact book model', () => {
  it('maps the exception form fields to a channel and side', () => {
    expect(fieldContacts('recipientEmail')).toEqual({ channel: 'email', side: 'shipTo' });
    expect(fieldContacts('shipperSms')).toEqual({ channel: 'phone', side: 'shipFrom' });
    expect(fieldContacts('upsAccountWechat')).toEqual({ channel: 'wechat', side: null });
    expect(fieldContacts('upsAccount')).toBeNull();
  });

  it('offers the field channel, its own side first', () => {
    expect(offeredFor(book, 'recipientEmail').map((c) => c.value)).toEqual([
      'buyer@example.com',
      'ops@acme.example.com',
    ]);
    expect(offeredFor(book, 'shipperWechat').map((c) => c.value)).toEqual(['oAbCdEf123']);
    expect(offeredFor(book, 'upsAccount')).toEqual([]);
  });
});

const envelope = (status: number, code: number, data: unknown) =>
  new Response(JSON.stringify({ code, message: code === 200 ? 'ok' : 'bad', data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

interface Call {
  method: string;
  body: unknown;
  ifMatch: string | null;
}
let calls: Call[] = [];
let putAnswer: () => Response;

beforeEach(() => {
  calls = [];
  putAnswer = () => envelope(200, 200, { id: 'b', version: 2, position: 7 });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_input: RequestInfo | URL, init?: RequestInit) => {
      const method = init?.method ?? 'GET';
      const headers = new Headers(init?.headers);
      calls.push({
        method,
        body: typeof init?.body === 'string' ? JSON.parse(init.body) : null,
        ifMatch: headers.get('If-Match'),
      });
      if (method === 'PUT') return putAnswer();
      return envelope(200, 200, {
        customerId: 'c-1',
        version: 1,
        contacts: book.slice(0, 1),
        updatedAt: null,
        updatedBy: null,
      });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

describe('the contact book editor', () => {
  it('adds a row and saves the whole book with If-Match', async () => {
    renderWithProviders(<ContactBookEditor customerId="c-1" />);
    expect(await screen.findByDisplayValue('ops@acme.example.com')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: /添加联系人|Add a contact/ }));
    fireEvent.change(screen.getByLabelText(/(联系方式|Address) 2/), {
      target: { value: 'buyer@example.com' },
    });
    fireEvent.click(screen.getByRole('button', { name: /保存|Save/ }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = calls.find((c) => c.method === 'PUT');
    expect(put?.ifMatch).toBe('1');
    expect((put?.body as { contacts: SavedContact[] }).contacts).toHaveLength(2);
  });

  it('shows the server message next to the field it names', async () => {
    putAnswer = () =>
      envelope(400, 400, [
        { field: 'contacts[0].value', message: 'contacts[0].value: not an e-mail address' },
      ]);
    renderWithProviders(<ContactBookEditor customerId="c-1" />);
    await screen.findByDisplayValue('ops@acme.example.com');
    fireEvent.click(screen.getByRole('button', { name: /保存|Save/ }));
    expect(await screen.findByText('contacts[0].value: not an e-mail address')).toBeInTheDocument();
  });
});
