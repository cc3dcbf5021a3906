import { useState } from 'react';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import { HsCodeInput } from '@/shared/hs-codes/components/HsCodeInput';
import type { HsSuggestion } from '@/shared/hs-codes/model/types';

const headphones: HsSuggestion = {
  code: '8518300000',
  description: '蓝牙耳机 / Bluetooth headset',
  source: 'PRODUCT_LIBRARY',
  score: 1,
  path: [
    { code: '85', description: 'Electrical machinery and equipment' },
    { code: '8518', description: 'Microphones and stands therefor' },
    { code: '851830', description: 'Headphones and earphones' },
  ],
  legalUnits: ['007'],
  elements: '4|3|品牌:无',
  productId: 'p-1',
};
const subheading: HsSuggestion = {
  code: '851830',
  description: 'Headphones and earphones, whether or not combined with a microphone',
  source: 'NOMENCLATURE',
  score: 0.31,
  path: headphones.path,
};

const envelope = (data: unknown) =>
  new Response(JSON.stringify({ code: 200, message: 'ok', data }), {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
  });

let calls: URL[] = [];
let answer: HsSuggestion[] = [];

beforeEach(async () => {
  calls = [];
  answer = [headphones, subheading];
  await i18n.changeLanguage('zh');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(url);
      return envelope(url.pathname === '/api/v1/hs-suggestions' ? answer : []);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function Harness(props: {
  description?: string;
  customerId?: string;
  onChange?: (code: string, s?: HsSuggestion) => void;
}) {
  const [value, setValue] = useState('');
  return (
    <HsCodeInput
      aria-label="HS"
      value={value}
      debounce={0}
      customerId={props.customerId}
      description={props.description}
      onChange={(code, s) => {
        setValue(code);
        props.onChange?.(code, s);
      }}
    />
  );
}

const asked = () => calls.filter((c) => c.pathname === '/api/v1/hs-suggestions');

describe('HsCodeInput', () => {
  it('asks as the user types and shows code, description, path, source, score, units and elements', async () => {
    const onChange = vi.fn();
    renderWithProviders(<Harness customerId="c-1" onChange={onChange} />);
    const input = screen.getByLabelText('HS');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '蓝牙耳机' } });

    expect(await screen.findByText('8518300000')).toBeInTheDocument();
    const last = asked().at(-1);
    expect(last?.searchParams.get('q')).toBe('蓝牙耳机');
    expect(last?.searchParams.get('customerId')).toBe('c-1');
    expect(last?.searchParams.get('limit')).toBe('8');
    expect(screen.getByText('蓝牙耳机 / Bluetooth headset')).toBeInTheDocument();
    expect(screen.getByText('商品库')).toBeInTheDocument();
    expect(screen.getByText('HS 2022 目录')).toBeInTheDocument();
    expect(screen.getByText('匹配度 100%')).toBeInTheDocument();
    expect(screen.getByText('匹配度 31%')).toBeInTheDocument();
    expect(screen.getAllByTestId('hs-path')[0]).toHaveTextContent(
      '85 Electrical machinery and equipment > 8518 Microphones and stands therefor > 851830 Headphones and earphones',
    );
    expect(screen.getByText('法定单位：007')).toBeInTheDocument();
    expect(screen.getByText('申报要素：4|3|品牌:无')).toBeInTheDocument();
    // A 6-digit subheading says it must be completed.
    expect(screen.getByText(/6 位子目/)).toBeInTheDocument();

    fireEvent.click(screen.getByText('8518300000'));
    await waitFor(() => expect(input).toHaveValue('8518300000'));
    expect(onChange).toHaveBeenLastCalledWith('8518300000', headphones);
  });

  it('suggests from the goods description while the field is empty', async () => {
    renderWithProviders(<Harness description="Bluetooth headset" />);
    fireEvent.focus(screen.getByLabelText('HS'));
    expect(await screen.findByText('按品名“Bluetooth headset”建议')).toBeInTheDocument();
    expect(asked().at(-1)?.searchParams.get('q')).toBe('Bluetooth headset');
    // A customer's own library: no customerId sent.
    expect(asked().at(-1)?.searchParams.has('customerId')).toBe(false);
  });

  it('asks nothing for an empty field without a description, and says when nothing matched', async () => {
    answer = [];
    renderWithProviders(<Harness />);
    const input = screen.getByLabelText('HS');
    fireEvent.focus(input);
    await new Promise((r) => setTimeout(r, 50));
    expect(asked()).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'zzzz' } });
    expect(await screen.findByText('没有建议')).toBeInTheDocument();
  });

  it('speaks English', async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(<Harness />);
    const input = screen.getByLabelText('HS');
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'headset' } });
    expect(await screen.findByText('Product library')).toBeInTheDocument();
    expect(screen.getByText('HS 2022 nomenclature')).toBeInTheDocument();
    expect(screen.getByText('match 31%')).toBeInTheDocument();
    expect(screen.getByText('Legal units: 007')).toBeInTheDocument();
    expect(screen.getByText(/6-digit subheading/)).toBeInTheDocument();
  });
});
