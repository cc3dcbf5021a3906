import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import { TaxPanel } from '@/features/assist-create/components/TaxPanel';
import type { TaxEstimate } from '@/shared/declarations/api/validateDeclaration';

const estimate: TaxEstimate = {
  regime: 'general',
  judgedOn: '2026-11-20',
  goodsCny: 2000,
  freightCny: 100,
  insuranceCny: 6.3,
  dutiableCny: 2106.3,
  lines: [
    {
      index: 0,
      goodsCode: '6109100000',
      valueCny: 2106.3,
      duty: { rate: '6% (mfnImportRate)', basis: 2106.3, amount: 126.38 },
      consumptionTax: null,
      vat: { rate: '13%', basis: 2232.68, amount: 290.25 },
      personalTax: null,
      category: null,
      notes: [],
    },
  ],
  duty: 126.38,
  consumptionTax: 0,
  vat: 290.25,
  personalTax: 0,
  total: 416.63,
  landedCny: 2416.63,
  complete: false,
  exemptions: [],
  notes: [
    {
      code: 'freight_missing',
      field: 'transpotationFeeValue',
      zh: '未申报运费',
      en: 'no freight declared',
    },
  ],
  tables: [{ table: 'tariff', effectiveFrom: '2026-01-01', contentHash: 'abc' }],
};

describe('TaxPanel', () => {
  it('shows each tax with its rate, the total, the landed cost and what is missing', async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(<TaxPanel tax={estimate} />);
    expect(screen.getByText(/general trade/)).toBeTruthy();
    expect(screen.getByText('(6% (mfnImportRate))')).toBeTruthy();
    expect(screen.getByTestId('tax-total').textContent).toContain('416.63');
    expect(screen.getByTestId('tax-total').textContent).toContain('2,416.63');
    expect(screen.getByText('no freight declared')).toBeTruthy();
    expect(screen.getByText(/Incomplete/)).toBeTruthy();
  });

  it("shows the buyer's yearly allowance, used and remaining, in red when this order passes it", async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(
      <TaxPanel
        tax={{ ...estimate, regime: 'crossBorder' }}
        allowance={{
          year: 2026,
          limitCny: 26000,
          usedCny: 25000,
          remainingCny: 1000,
          thisCny: 2000,
        }}
      />,
    );
    const line = screen.getByTestId('tax-allowance');
    expect(line.textContent).toContain('used 25,000,');
    expect(line.textContent).toContain('remaining 1,000,');
    expect(line.textContent).toContain('this order 2,000');
    expect(line.getAttribute('style') ?? '').toContain('red');
  });

  it('shows no allowance line outside cross-border retail', async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(<TaxPanel tax={estimate} />);
    expect(screen.queryByTestId('tax-allowance')).toBeNull();
  });
});
