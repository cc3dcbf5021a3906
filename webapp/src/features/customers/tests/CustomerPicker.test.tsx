import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import {
  CustomerPicker,
  CustomerUsernameInput,
} from '@/shared/customers/components/CustomerPicker';

const rows = [
  { customerId: 'c-1', username: 'acme', companyName: 'ACME Trading' },
  { customerId: 'c-2', username: 'acme2', companyName: 'ACME Two' },
];

let keywords: (string | null)[] = [];

beforeEach(() => {
  keywords = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      keywords.push(url.searchParams.get('keyword'));
      const k = url.searchParams.get('keyword') ?? '';
      const data = { records: rows.filter((r) => r.username.includes(k)), total: 2 };
      return new Response(JSON.stringify({ code: 200, message: 'ok', data }), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

vi.setConfig({ testTimeout: 20_000 });

function Picker({ onPick }: { onPick: (v: string) => void }) {
  const [value, setValue] = useState('c-9');
  return (
    <CustomerPicker
      label="客户"
      value={value}
      selected={{ customerId: 'c-9', username: 'globex', companyName: 'Globex Ltd' }}
      onChange={(v) => {
        setValue(v);
        onPick(v);
      }}
    />
  );
}

describe('customer pickers', () => {
  it('shows a preselected customer by label and picks another by its id', async () => {
    const onPick = vi.fn();
    renderWithProviders(<Picker onPick={onPick} />);
    const input = document.querySelector<HTMLInputElement>('input:not([type=hidden])')!;
    expect(input).toHaveValue('globex · Globex Ltd');
    input.focus();
    fireEvent.change(input, { target: { value: 'acme2' } });
    await waitFor(() => expect(keywords).toContain('acme2'));
    fireEvent.click(await screen.findByRole('option', { name: /acme2/, hidden: true }));
    expect(onPick).toHaveBeenCalledWith('c-2');
  });

  it('lets a filter take a typed username and suggests matches', async () => {
    const onChange = vi.fn();
    function Input() {
      const [v, setV] = useState('');
      return (
        <CustomerUsernameInput
          label="客户账号"
          value={v}
          onChange={(x) => {
            setV(x);
            onChange(x);
          }}
        />
      );
    }
    renderWithProviders(<Input />);
    const input = screen.getByLabelText('客户账号');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'acm' } });
    expect(onChange).toHaveBeenLastCalledWith('acm');
    await waitFor(() => expect(keywords).toContain('acm'));
    fireEvent.click(await screen.findByRole('option', { name: /acme2/, hidden: true }));
    expect(onChange).toHaveBeenLastCalledWith('acme2');
  });
});
