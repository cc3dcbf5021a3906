// The declaration form's share of the field rules every form follows: tracking numbers
// (draft), numbers that are not numbers (draft), phones (submit), the currency warning, and
// the blank goods line marked where it is.
import { describe, expect, it } from 'vitest';
import type { DeclarationData } from '@/shared/declarations/model/types';
import { emptyGoodsLine, toFormValues, toPayload } from '@/shared/declarations/model/formValues';
import {
  currencyWarnings,
  markBlankLine,
  validateDraft,
  validateFull,
} from '@/shared/declarations/model/validation';

const rules = (v: { field: string; rule: string }[]) => v.map((x) => `${x.field}:${x.rule}`);

const good: DeclarationData = {
  trackingNumber: '1Z999AA10123456784',
  shipperName: 'Li Lei',
  shipperPhone: '13800138000',
  recipientName: 'John Smith',
  recipientPhone: '+1 502 555 0100',
  recipientAddress: '1 Main St',
  currencyCode: 'USD',
  declarationGoodsInfo: [
    {
      goodsCode: '6109100000',
      goodsName: 'T-shirt',
      goodsQuantity: 20,
      goodsUnit: '011',
      unitPrice: 8.5,
      totalPrice: 170,
      currency: 'USD',
    },
  ],
};

describe('tracking numbers on the form', () => {
  it('refuses ABC123 and a short 1Z number before anything is saved', () => {
    expect(rules(validateDraft({ trackingNumber: 'ABC123' }))).toEqual([
      'trackingNumber:tracking_short',
    ]);
    expect(rules(validateDraft({ trackingNumber: '1ZACME00DEMO03' }))).toEqual([
      'trackingNumber:tracking_ups_format',
    ]);
    expect(validateDraft({ trackingNumber: '1z 999aa1 0123 4567 84' })).toEqual([]);
  });
});

describe('numbers', () => {
  it("keeps 'abc' typed as a weight and refuses it, naming the value", () => {
    const values = toFormValues();
    values.trackingNumber = 'CW12345678';
    values.grossWeight = 'abc';
    values.declarationGoodsInfo = [
      { ...emptyGoodsLine(1), goodsName: 'Hat', goodsQuantity: 'two' },
    ];
    const payload = toPayload(values);
    expect((payload as Record<string, unknown>).grossWeight).toBe('abc');
    const v = validateDraft(payload);
    expect(v).toContainEqual({ field: 'grossWeight', rule: 'number', params: { value: 'abc' } });
    expect(v).toContainEqual({
      field: 'declarationGoodsInfo[0].goodsQuantity',
      rule: 'number',
      params: { value: 'two' },
    });
  });
  it('still sends numbers as numbers and blanks as null', () => {
    const values = toFormValues();
    values.grossWeight = ' 1.5 ';
    values.netWeight = '';
    const p = toPayload(values) as Record<string, unknown>;
    expect(p.grossWeight).toBe(1.5);
    expect(p.netWeight).toBeNull();
  });
});

describe('phones', () => {
  it('refuses not-a-phone as shipper phone on submit, takes landlines and +numbers', () => {
    expect(validateFull(good, 'OC')).toEqual([]);
    expect(rules(validateFull({ ...good, shipperPhone: 'not-a-phone' }, 'OC'))).toEqual([
      'shipperPhone:phone',
    ]);
    expect(validateFull({ ...good, shipperPhone: '021-6123 4567' }, 'OC')).toEqual([]);
  });
});

describe('currency warning', () => {
  it('warns on lines priced in another currency than the header, blocks nothing', () => {
    const cny = { ...good, currencyCode: 'CNY' };
    expect(validateFull(cny, 'OC')).toEqual([]);
    expect(currencyWarnings(cny)).toEqual([
      {
        field: 'declarationGoodsInfo[0].currency',
        rule: 'currency_mismatch',
        params: { currency: 'USD', header: 'CNY' },
      },
    ]);
    expect(currencyWarnings(good)).toEqual([]);
    expect(currencyWarnings({ ...good, currencyCode: 'usd' })).toEqual([]);
  });
});

describe('the blank goods line', () => {
  it("marks line 1's required cells when 'at least one goods line' meets a blank line", () => {
    const payload = { ...good, declarationGoodsInfo: [] };
    const v = validateFull(payload, 'OC');
    expect(rules(v)).toContain('declarationGoodsInfo:min_items');
    const marked = rules(markBlankLine(v, 1, 'OC'));
    for (const f of ['goodsName', 'goodsQuantity', 'goodsUnit', 'totalPrice', 'goodsCode'])
      expect(marked).toContain(`declarationGoodsInfo[0].${f}:required`);
    // No line on screen: nothing to mark.
    expect(markBlankLine(v, 0, 'OC')).toEqual(v);
  });
});
