import { describe, expect, it } from 'vitest';
import type { GoodsLine } from '@/shared/declarations/model/types';
import { convert, legalQuantities, toBase, unitTable, wizardTotals } from '../model/units';

// Rows as GET /api/v1/reference/units answers them (seeds/reference/units.csv).
const units = unitTable([
  { code: '035', convCode: '035', convRatio: '1' },
  { code: '036', convCode: '035', convRatio: '0.001' },
  { code: '070', convCode: '035', convRatio: '1000' },
  { code: '076', convCode: '035', convRatio: '0.4536' },
  { code: '083', convCode: '036', convRatio: '28.3495' },
  { code: '011', convCode: '011', convRatio: '1' },
  { code: '127', convCode: '011', convRatio: '12' },
  { code: '001', convCode: '', convRatio: '' },
  { code: '998', convCode: '999', convRatio: '2' },
  { code: '999', convCode: '998', convRatio: '3' },
]);

describe('unit conversion', () => {
  it('follows the table to the base unit, chains included', () => {
    expect(toBase(units, '035')).toEqual(['035', 1]);
    expect(toBase(units, '036')).toEqual(['035', 0.001]);
    expect(toBase(units, '083')?.[0]).toBe('035');
    expect(toBase(units, '083')?.[1]).toBeCloseTo(0.0283495, 9);
  });

  it('refuses units that are unknown, not convertible or in a cycle', () => {
    expect(toBase(units, '001')).toBeNull();
    expect(toBase(units, '404')).toBeNull();
    expect(toBase(units, '998')).toBeNull();
  });

  it('converts between units of one base and not across bases', () => {
    expect(convert(units, 500, '036', '035')).toBe(0.5);
    expect(convert(units, 2, '070', '036')).toBe(2_000_000);
    expect(convert(units, 10, '076', '035')).toBe(4.536);
    expect(convert(units, 3, '127', '011')).toBe(36);
    expect(convert(units, 3, '011', '035')).toBeNull();
    expect(convert(units, 7, '001', '001')).toBe(7);
  });

  it('fills the legal quantities a line can convert to, and only those', () => {
    const line: GoodsLine = {
      goodsQuantity: 1500,
      goodsUnit: '036',
      unitOne: '035',
      unitTwo: '011',
    };
    expect(legalQuantities(units, line)).toEqual({ quantityOne: 1.5 });
    expect(legalQuantities(units, { ...line, goodsQuantity: null })).toEqual({});
    expect(legalQuantities(units, { goodsQuantity: 2, goodsUnit: '127', unitOne: '011' })).toEqual({
      quantityOne: 24,
    });
  });
});

describe('totals', () => {
  it('sums values per currency, quantities and weights in kilograms', () => {
    const lines: GoodsLine[] = [
      { goodsQuantity: 500, goodsUnit: '036', unitPrice: 0.2, currency: 'USD' },
      { goodsQuantity: 2, goodsUnit: '011', totalPrice: 30, quantityOne: 1.25, unitOne: '035' },
      { goodsQuantity: 4, goodsUnit: '011', totalPrice: 8 },
    ];
    const t = wizardTotals(units, lines, { currencyCode: 'CNY', grossWeight: 2, netWeight: 1.5 });
    expect(t.lines).toBe(3);
    expect(t.quantity).toBe(506);
    expect(t.byCurrency).toEqual({ USD: 100, CNY: 38 });
    // 500 g + 1.25 kg (the legal quantity); the third line has no weight.
    expect(t.linesKg).toBe(1.75);
    expect(t.weighedLines).toBe(2);
    expect(t.netAboveGross).toBe(false);
  });

  it('flags a net weight above the gross weight and no weight when none converts', () => {
    const t = wizardTotals(units, [{ goodsQuantity: 1, goodsUnit: '011' }], {
      grossWeight: '1',
      netWeight: '2',
    });
    expect(t.netAboveGross).toBe(true);
    expect(t.linesKg).toBeNull();
  });
});
