import { describe, expect, it } from 'vitest';
import { productProblems, tradeCompanyProblems, usccProblem } from '../model/validation';
import {
  emptySchemeForm,
  fromDefinition,
  parsePosition,
  schemeProblems,
  toDefinition,
} from '../model/scheme';
import { bodyOf, formValues, TRADE_FIELDS } from '../model/fields';
import { goodsFromProduct } from '@/shared/master-data/model/product';

describe('usccProblem', () => {
  it('accepts published codes and names the kind of mistake', () => {
    expect(usccProblem('91440300MA5FHK4H1F')).toBeNull();
    expect(usccProblem('91350100m000100y43')).toBeNull();
    expect(usccProblem('91440300MA5FHK4H1E')).toBe('checkDigit');
    expect(usccProblem('91440300IA5FHK4H1F')).toBe('format');
    expect(usccProblem('9144')).toBe('format');
  });
});

describe('tradeCompanyProblems', () => {
  it('names every bad field with its message key', () => {
    expect(
      tradeCompanyProblems({
        companyNameCn: ' ',
        uscc: '91440300MA5FHK4H1E',
        customsCode: '44039',
        inspectionCode: '47000000A1',
      }),
    ).toEqual({
      companyNameCn: 'required',
      uscc: 'usccCheckDigit',
      customsCode: 'customsCode',
      inspectionCode: 'inspectionCode',
    });
    expect(
      tradeCompanyProblems({
        companyNameCn: '深圳某某科技有限公司',
        uscc: '91440300MA5FHK4H1F',
        customsCode: '4403960abc',
        inspectionCode: '',
      }),
    ).toEqual({});
  });
});

describe('productProblems', () => {
  it('wants a 10-digit HS code, a unit, and a currency with a price', () => {
    expect(productProblems({ descriptionCn: '', hsCode: '851713', declaredUnit: '' })).toEqual({
      descriptionCn: 'required',
      hsCode: 'hsCode',
      declaredUnit: 'required',
    });
    expect(
      productProblems({
        descriptionCn: '手机',
        hsCode: '8517130000',
        declaredUnit: '011',
        unitPrice: '12',
        currency: '',
      }),
    ).toEqual({ currency: 'currencyWithPrice' });
    expect(
      productProblems({
        descriptionCn: '手机',
        hsCode: '8517130000',
        declaredUnit: '011',
        unitPrice: '-1',
      }),
    ).toEqual({ unitPrice: 'positive' });
  });
});

describe('scheme form', () => {
  it('reads column letters and numbers as positions', () => {
    expect(parsePosition('C')).toBe(3);
    expect(parsePosition('aa')).toBe(27);
    expect(parsePosition('12')).toBe(12);
    expect(parsePosition('')).toBeNull();
    expect(parsePosition('C3')).toBeNull();
  });

  it('turns the form into a definition and back', () => {
    const form = emptySchemeForm();
    form.name = ' Acme ';
    form.declarationType = 'OC';
    form.columns = [
      { field: 'trackingNumber', header: 'Waybill', aliases: '运单号， AWB', position: '' },
      { field: 'declarationGoodsInfo.totalPrice', header: '', aliases: '', position: 'F' },
    ];
    form.translations = [{ field: 'declarationGoodsInfo.goodsUnit', a: 'KG', b: '035' }];
    form.defaults = [{ field: 'declarationGoodsInfo.currency', a: '', b: 'USD' }];
    const d = toDefinition(form);
    expect(d).toEqual({
      name: 'Acme',
      declarationType: 'OC',
      headerRow: 1,
      columns: [
        { field: 'trackingNumber', header: 'Waybill', aliases: ['运单号', 'AWB'], position: null },
        { field: 'declarationGoodsInfo.totalPrice', header: null, aliases: [], position: 6 },
      ],
      translations: [{ field: 'declarationGoodsInfo.goodsUnit', from: 'KG', to: '035' }],
      defaults: [{ field: 'declarationGoodsInfo.currency', value: 'USD' }],
    });
    expect(toDefinition(fromDefinition(d))).toEqual(d);
  });

  it('names the rows the server would refuse', () => {
    const form = emptySchemeForm();
    form.headerRow = '0';
    form.columns = [
      { field: 'trackingNumber', header: 'A', aliases: '', position: '' },
      { field: 'trackingNumber', header: '', aliases: '', position: '' },
      { field: '', header: 'x', aliases: '', position: 'C3' },
    ];
    expect(schemeProblems(form)).toEqual({
      name: 'required',
      headerRow: 'headerRow',
      'columns[1].field': 'duplicate',
      'columns[1].header': 'headerOrPosition',
      'columns[2].field': 'required',
      'columns[2].position': 'position',
    });
  });
});

describe('record fields', () => {
  it('fills the form from a record and sends empty optional fields as null', () => {
    const values = formValues({ companyNameCn: 'A', uscc: 'U', address: null }, TRADE_FIELDS);
    expect(values.companyNameCn).toBe('A');
    expect(values.address).toBe('');
    expect(bodyOf({ companyNameCn: ' A ', address: '  ' })).toEqual({
      companyNameCn: 'A',
      address: null,
    });
  });
});

describe('goodsFromProduct', () => {
  it('fills the goods line with what the product has', () => {
    expect(
      goodsFromProduct({
        id: 'p',
        customerId: 'c',
        version: 1,
        descriptionCn: '智能手机',
        hsCode: '8517130000',
        declaredUnit: '011',
        declarationElements: '1|0|品牌:无',
        originCountry: 'CHN',
        legalUnitOne: null,
        unitPrice: 199.9,
        currency: 'USD',
      }),
    ).toEqual({
      goodsCode: '8517130000',
      goodsName: '智能手机',
      goodsUnit: '011',
      specification: '1|0|品牌:无',
      originCountry: 'CHN',
      currency: 'USD',
      unitPrice: 199.9,
    });
  });
});
