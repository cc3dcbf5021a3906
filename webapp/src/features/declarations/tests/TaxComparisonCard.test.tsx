import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import '@/shared/declarations/i18n';
import { TaxComparisonCard } from '@/features/declarations/components/TaxComparisonCard';
import type { DeclarationTaxes } from '@/features/declarations/api/getDeclarationTaxes';

const estimated: DeclarationTaxes = {
  estimate: {},
  estimatedTotal: 416.63,
  assessedTotal: null,
  assessedAt: null,
  taxes: [
    { tax: 'duty', code: null, estimated: 126.38, assessed: null },
    { tax: 'consumptionTax', code: null, estimated: 0, assessed: null },
    { tax: 'vat', code: null, estimated: 290.25, assessed: null },
  ],
  difference: null,
  differenceShare: null,
  flagShare: 0.05,
  flagged: false,
};

describe('TaxComparisonCard', () => {
  it('shows the estimate with an empty assessed column until customs assesses', async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(<TaxComparisonCard taxes={estimated} />);
    expect(screen.getByText('416.63')).toBeTruthy();
    expect(screen.getByText(/no T receipt/)).toBeTruthy();
    expect(screen.queryByTestId('tax-difference-flag')).toBeNull();
  });

  it('flags an assessment differing by more than the configured share', async () => {
    await i18n.changeLanguage('en');
    renderWithProviders(
      <TaxComparisonCard
        taxes={{
          ...estimated,
          assessedTotal: 476.38,
          taxes: [
            { tax: 'duty', code: 'A', estimated: 126.38, assessed: 126.38 },
            { tax: 'consumptionTax', code: null, estimated: 0, assessed: null },
            { tax: 'vat', code: 'L', estimated: 290.25, assessed: 350 },
          ],
          difference: 59.75,
          differenceShare: 0.1254,
          flagged: true,
        }}
      />,
    );
    expect(screen.getByText('476.38')).toBeTruthy();
    const flag = screen.getByTestId('tax-difference-flag');
    expect(flag.textContent).toContain('59.75');
    expect(flag.textContent).toContain('12.5%');
    expect(flag.textContent).toContain('5%');
  });
});
