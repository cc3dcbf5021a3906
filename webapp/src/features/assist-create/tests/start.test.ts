import { describe, expect, it } from 'vitest';
import type { Declaration } from '@/shared/declarations/model/types';
import { blankForm, copyForm, IDENTIFYING_FIELDS, templateForm } from '../model/start';
import { blockerOf, type WizardChoices } from '../model/steps';

const earlier = {
  id: 'd-1',
  version: 4,
  status: 3,
  customerId: 'c-1',
  declarationType: 'OC',
  trackingNumber: '1ZOLD0001',
  entryId: '223320261000000001',
  billNo: 'MAWB-1',
  declareDate: '20261101',
  shipperName: 'Li Lei',
  recipientName: 'John Smith',
  recipientAddress: '1 Main Street',
  currencyCode: 'USD',
  grossWeight: 3.5,
  netWeight: 3,
  declarationGoodsInfo: [
    {
      goodsNo: 7,
      goodsCode: '6109100000',
      goodsName: 'T-shirt',
      goodsQuantity: 20,
      unitPrice: 8.5,
      totalPrice: 170,
      trackingNumber: '1ZOLD0001',
    },
  ],
} as unknown as Declaration;

describe('where the form starts', () => {
  it('copies every field and line but the identifying ones', () => {
    const v = copyForm(earlier);
    for (const f of IDENTIFYING_FIELDS) expect(v[f]).toBe('');
    expect(v.shipperName).toBe('Li Lei');
    expect(v.currencyCode).toBe('USD');
    expect(v.grossWeight).toBe(3.5);
    expect(v.declarationGoodsInfo).toHaveLength(1);
    expect(v.declarationGoodsInfo[0].goodsCode).toBe('6109100000');
    expect(v.declarationGoodsInfo[0].trackingNumber).toBe('');
    expect(v.declarationGoodsInfo[0].goodsNo).toBe(1);
    // Server-owned fields are not form values.
    expect(v).not.toHaveProperty('id');
    expect(v).not.toHaveProperty('status');
    expect(v).not.toHaveProperty('customerId');
  });

  it('templates the type defaults with the last declaration parties, no goods, no numbers', () => {
    const d = templateForm('OD', earlier);
    expect(d.supervisionMode).toBe('0110');
    expect(d.cutMode).toBe('101');
    expect(d.shipperName).toBe('Li Lei');
    expect(d.currencyCode).toBe('USD');
    expect(d.trackingNumber).toBe('');
    expect(d.billNo).toBe('');
    expect(d.grossWeight).toBe('');
    expect(d.declarationGoodsInfo).toHaveLength(1);
    expect(d.declarationGoodsInfo[0].goodsCode).toBe('');
    expect(d.declarationGoodsInfo[0].dutyMode).toBe('1');

    const c = templateForm('IC', null);
    expect(c.serviceType).toBe('065');
    expect(c.currencyCode).toBe('CNY');
    expect(c.supervisionMode).toBe('');
  });

  it('starts blank with CNY and one empty line', () => {
    const b = blankForm();
    expect(b.currencyCode).toBe('CNY');
    expect(b.declarationGoodsInfo).toHaveLength(1);
    expect(b.trackingNumber).toBe('');
  });
});

describe('the steps', () => {
  const base: WizardChoices = {
    staff: true,
    customerId: '',
    type: null,
    start: 'blank',
    copyFrom: null,
  };

  it('needs a customer from staff only, a type, and a declaration to copy', () => {
    expect(blockerOf(0, base)).toBe('customer.required');
    expect(blockerOf(0, { ...base, staff: false })).toBeNull();
    expect(blockerOf(0, { ...base, customerId: 'c-1' })).toBeNull();
    expect(blockerOf(1, base)).toBe('type.label');
    expect(blockerOf(1, { ...base, type: 'OC' })).toBeNull();
    expect(blockerOf(2, { ...base, start: 'copy' })).toBe('start.needCopy');
    expect(blockerOf(2, { ...base, start: 'copy', copyFrom: 'd-1' })).toBeNull();
    expect(blockerOf(2, { ...base, start: 'template' })).toBeNull();
    expect(blockerOf(3, base)).toBeNull();
  });
});
