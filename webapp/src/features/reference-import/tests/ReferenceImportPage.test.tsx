import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import ReferenceImportPage from '@/features/reference-import/pages/ReferenceImportPage';

const envelope = (status: number, data: unknown, message = 'ok') =>
  new Response(JSON.stringify({ code: status, message, data }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

let sent: { path: string; confirm: boolean; from: string | null }[] = [];
let answer: (confirm: boolean) => Response;

const preview = (over: Record<string, unknown> = {}) => ({
  table: 'tariff',
  effectiveFrom: '2027-01-01',
  rows: 2,
  columns: ['code', 'nameZh', 'consumptionTax'],
  sample: [{ code: '0101210010', nameZh: '改良种用濒危野马', consumptionTax: '' }],
  contentHash: 'abc',
  problems: [],
  imported: null,
  ...over,
});

beforeEach(async () => {
  sent = [];
  await i18n.changeLanguage('en');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const form = init?.body as FormData;
      const confirm = form.get('confirm') === 'true';
      sent.push({ path: url.pathname, confirm, from: form.get('effectiveFrom') as string | null });
      return answer(confirm);
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const choose = () => {
  const file = new File(['code,name_zh\n'], 'tariff_2027.csv', { type: 'text/csv' });
  fireEvent.change(screen.getByLabelText(/In force from/), { target: { value: '2027-01-01' } });
  const input = document.querySelector('input[type="file"]') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
};

describe('ReferenceImportPage', { timeout: 20_000 }, () => {
  it('reads the file first, shows its rows, and imports only when confirmed', async () => {
    answer = (confirm) =>
      envelope(200, preview(confirm ? { imported: { version: 2, position: 99 } } : {}));
    renderWithProviders(<ReferenceImportPage />);
    choose();
    const importButton = screen.getByRole('button', { name: 'Import' });
    expect(importButton.hasAttribute('disabled')).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Read' }));
    await waitFor(() => expect(screen.getByTestId('import-preview')).toBeTruthy());
    expect(screen.getByText('tariff: 2 rows, in force from 2027-01-01')).toBeTruthy();
    expect(screen.getByText('0101210010')).toBeTruthy();
    expect(sent).toEqual([
      { path: '/api/v1/admin/reference/tariff/import', confirm: false, from: '2027-01-01' },
    ]);
    await waitFor(() => expect(importButton.hasAttribute('disabled')).toBe(false));
    fireEvent.click(importButton);
    await waitFor(() => expect(screen.getByTestId('import-done')).toBeTruthy());
    expect(sent[1].confirm).toBe(true);
  });

  it('names the line and column it cannot read and offers no import', async () => {
    answer = () =>
      envelope(
        200,
        preview({
          rows: 0,
          sample: [],
          columns: [],
          problems: [
            {
              line: 3,
              column: 'consumptionTax',
              message: 'line 3, column consumptionTax: cannot read rate "十五"',
            },
          ],
        }),
      );
    renderWithProviders(<ReferenceImportPage />);
    choose();
    fireEvent.click(screen.getByRole('button', { name: 'Read' }));
    await waitFor(() => expect(screen.getByTestId('import-problem')).toBeTruthy());
    expect(screen.getByTestId('import-problem').textContent).toContain('line 3');
    expect(screen.getByTestId('import-problem').textContent).toContain('consumptionTax');
    expect(screen.getByRole('button', { name: 'Import' }).hasAttribute('disabled')).toBe(true);
  });
});
