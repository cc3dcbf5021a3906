import { describe, expect, it } from 'vitest';
import type { DeclarationData, GoodsLine } from '@/shared/declarations/model/types';
import {
  checkUscc,
  goodsTotals,
  isReadableDate,
  looksLikePrcId,
  prcIdCheckOk,
  requiredFields,
  toFormPath,
  toServerPath,
  usccCheckChar,
  validateDraft,
  validateFull,
} from '@/shared/declarations/model/validation';

const rules = (v: { field: string; rule: string }[]) => v.map((x) => `${x.field}:${x.rule}`);

const goodC: GoodsLine = {
  goodsCode: '6109100000',
  goodsName: 'T-shirt',
  goodsQuantity: 20,
  goodsUnit: '011',
  unitPrice: 8.5,
  totalPrice: 170,
  currency: 'USD',
};

const classC: DeclarationData = {
  trackingNumber: '1Z999AA10123456784',
  shipperName: 'Li Lei',
  recipientName: 'John Smith',
  recipientAddress: '1 Main St',
  declarationGoodsInfo: [goodC],
};

describe('USCC (GB 32100-2015)', () => {
  it('accepts published codes and computes the check character', () => {
    expect(checkUscc('91440300MA5FHK4H1F')).toBe('ok');
    expect(checkUscc('91350100M000100Y43')).toBe('ok');
    expect(usccCheckChar('91440300MA5FHK4H1')).toBe('F');
    expect(usccCheckChar('00000000000000000')).toBe('0');
  });
  it('tells a wrong check character from a bad format', () => {
    expect(checkUscc('91440300MA5FHK4H1E')).toBe('check');
    expect(checkUscc('91440300MA5FHK4H1')).toBe('format');
    expect(checkUscc('91440300IA5FHK4H1F')).toBe('format');
    expect(checkUscc('91440300ma5fhk4h1f')).toBe('format');
  });
});

describe('PRC ID number', () => {
  it('checks ISO 7064 MOD 11-2 only when the value looks like one', () => {
    expect(prcIdCheckOk('11010519491231002X')).toBe(true);
    expect(prcIdCheckOk('440524188001010014')).toBe(true);
    expect(prcIdCheckOk('110105194912310021')).toBe(false);
    expect(looksLikePrcId('E12345678')).toBe(false);
  });
});

describe('dates', () => {
  it('reads YYYYMMDD, YYYY-MM-DD and ISO timestamps of real days', () => {
    expect(isReadableDate('20261122')).toBe(true);
    expect(isReadableDate('2026-11-22')).toBe(true);
    expect(isReadableDate('2026-11-22T09:30:00+08:00')).toBe(true);
    expect(isReadableDate('20260230')).toBe(false);
    expect(isReadableDate('22/11/2026')).toBe(false);
  });
});

describe('draft rules', () => {
  it('needs a tracking number of at most 64 characters', () => {
    expect(rules(validateDraft({}))).toEqual(['trackingNumber:required']);
    expect(rules(validateDraft({ trackingNumber: '   ' }))).toEqual(['trackingNumber:required']);
    expect(rules(validateDraft({ trackingNumber: 'x'.repeat(65) }))).toEqual([
      'trackingNumber:max_length',
    ]);
  });
  it('limits every string to 1000 characters, naming its path', () => {
    const v = validateDraft({
      trackingNumber: '1Z999AA10123456784',
      declarationGoodsInfo: [{ goodsName: 'x'.repeat(1001) }],
    });
    expect(rules(v)).toEqual(['declarationGoodsInfo[0].goodsName:max_length']);
  });
  it('accepts an incomplete draft', () => {
    expect(validateDraft({ trackingNumber: '1Z999AA10123456784' })).toEqual([]);
  });
});

describe('full rules', () => {
  it('passes a complete class C export', () => {
    expect(validateFull(classC, 'OC')).toEqual([]);
  });

  it('requires the shipment parties and a goods line for B and C', () => {
    const v = rules(validateFull({ trackingNumber: '1Z999AA10123456784' }, 'OC'));
    expect(v).toEqual(
      expect.arrayContaining([
        'shipperName:required',
        'recipientName:required',
        'recipientAddress:required',
        'declarationGoodsInfo:min_items',
      ]),
    );
  });

  it('requires the personal ID by direction for B', () => {
    expect(rules(validateFull(classC, 'IB'))).toContain('recipientIdNumber:required');
    expect(rules(validateFull(classC, 'OB'))).toContain('shipperIdNumber:required');
    expect(rules(validateFull({ ...classC, shipperIdNumber: 'E12345678' }, 'OB'))).toEqual([]);
    expect(rules(validateFull({ ...classC, shipperIdNumber: '110105194912310021' }, 'OB'))).toEqual(
      ['shipperIdNumber:id_number_check_digit'],
    );
  });

  it('requires a 10-digit HS code on C and D lines, not on B', () => {
    const noCode = { ...classC, declarationGoodsInfo: [{ ...goodC, goodsCode: null }] };
    expect(rules(validateFull(noCode, 'OC'))).toEqual([
      'declarationGoodsInfo[0].goodsCode:required',
    ]);
    expect(rules(validateFull({ ...noCode, shipperIdNumber: 'P1' }, 'OB'))).toEqual([]);
    const short = { ...classC, declarationGoodsInfo: [{ ...goodC, goodsCode: '61091000' }] };
    expect(rules(validateFull(short, 'OC'))).toEqual(['declarationGoodsInfo[0].goodsCode:hs_code']);
  });

  it('checks unit price x quantity = total within 0.01', () => {
    const within = { ...classC, declarationGoodsInfo: [{ ...goodC, totalPrice: 170.01 }] };
    expect(validateFull(within, 'OC')).toEqual([]);
    const off = { ...classC, declarationGoodsInfo: [{ ...goodC, totalPrice: 171 }] };
    const v = validateFull(off, 'OC');
    expect(rules(v)).toEqual(['declarationGoodsInfo[0].totalPrice:total_price']);
    expect(v[0].params).toEqual({ expected: 170 });
  });

  it('refuses a net weight above the gross weight and non-positive numbers', () => {
    const v = rules(
      validateFull(
        { ...classC, grossWeight: 2, netWeight: 3, packageNumber: 0, containerCount: -1 },
        'OC',
      ),
    );
    expect(v).toEqual(
      expect.arrayContaining([
        'netWeight:net_weight_above_gross',
        'packageNumber:positive',
        'containerCount:non_negative',
      ]),
    );
  });

  it('checks USCC, customs codes, inspection codes, offices, markers, fee types and dates', () => {
    const v = rules(
      validateFull(
        {
          ...classC,
          consigneeScc: '91440300MA5FHK4H1E',
          ownerCompanyScc: 'ABC',
          consigneeCustomMaster: '12AB',
          consigneeInspectCode: '12345',
          customMaster: '22',
          specialRelationship: '2',
          transpotationFeeType: '4',
          declareDate: '2026-13-01',
        },
        'OC',
      ),
    );
    expect(v).toEqual(
      expect.arrayContaining([
        'consigneeScc:uscc_check_digit',
        'ownerCompanyScc:uscc_format',
        'consigneeCustomMaster:customs_code',
        'consigneeInspectCode:inspection_code',
        'customMaster:customs_office',
        'specialRelationship:marker',
        'transpotationFeeType:fee_type',
        'declareDate:date',
      ]),
    );
  });

  it('requires the full header and full lines for D, ports by direction', () => {
    const v = rules(validateFull(classC, 'ID'));
    for (const f of requiredFields('D', 'import').header.filter((f) => f !== 'trackingNumber'))
      expect(v).toContain(`${f}:required`);
    expect(v).toContain('despPort:required');
    expect(v).not.toContain('distinatePort:required');
    expect(v).toContain('declarationGoodsInfo[0].districtCode:required');
    expect(rules(validateFull(classC, 'OD'))).toContain('distinatePort:required');
  });

  it('needs the legal quantity when its unit is set', () => {
    const line = { ...goodC, unitOne: '035' };
    expect(rules(validateFull({ ...classC, declarationGoodsInfo: [line] }, 'OC'))).toEqual([
      'declarationGoodsInfo[0].quantityOne:required',
    ]);
  });

  it('checks reference codes only against loaded tables', () => {
    const data = { ...classC, currencyCode: 'XXX' };
    expect(validateFull(data, 'OC', () => undefined)).toEqual([]);
    const lookup = (table: string, code: string) =>
      table === 'currencies' ? code !== 'XXX' : undefined;
    expect(rules(validateFull(data, 'OC', lookup))).toEqual(['currencyCode:reference_code']);
  });

  it('treats blank strings as absent and numeric strings as numbers', () => {
    const v = rules(
      validateFull(
        { ...classC, shipperName: '  ', grossWeight: '3' as never, netWeight: '4' as never },
        'OC',
      ),
    );
    expect(v).toEqual(
      expect.arrayContaining(['shipperName:required', 'netWeight:net_weight_above_gross']),
    );
  });
});

describe('paths and totals', () => {
  it('converts between server and form paths', () => {
    expect(toFormPath('declarationGoodsInfo[2].goodsCode')).toBe(
      'declarationGoodsInfo.2.goodsCode',
    );
    expect(toServerPath('declarationGoodsInfo.2.goodsCode')).toBe(
      'declarationGoodsInfo[2].goodsCode',
    );
    expect(toServerPath('declarationGoodsInfo.3')).toBe('declarationGoodsInfo[3]');
    expect(toFormPath('grossWeight')).toBe('grossWeight');
  });
  it('sums quantities and values per currency', () => {
    const totals = goodsTotals(
      [
        goodC,
        { goodsQuantity: 5, unitPrice: 12 },
        { goodsQuantity: 1, totalPrice: 3.333, currency: 'usd' },
      ],
      'EUR',
    );
    expect(totals).toEqual({ lines: 3, quantity: 26, byCurrency: { USD: 173.33, EUR: 60 } });
  });
});
