import { describe, expect, it } from 'vitest';
import { ageText, longestWaiting } from '@/shared/clearance-exceptions/model/age';
import { initialExceptionExport, toExceptionExportForm } from '../model/exportForm';
import {
  emptyExceptionForm,
  requestedDocumentFlag,
  requestedItems,
  toExceptionBody,
  validateExceptionForm,
  type ExceptionFormValues,
} from '../model/form';
import { exceptionListParams } from '@/shared/clearance-exceptions/model/listFilters';
import {
  exceptionCreatePath,
  exceptionDetailPath,
  exceptionListPath,
} from '@/shared/clearance-exceptions/model/paths';
import {
  STATUS_COLORS,
  allowedExceptionActions,
  canUpload,
  STATUS_FILTER_VALUES,
} from '@/shared/clearance-exceptions/model/statuses';
import {
  DOCUMENT_FLAGS,
  EXCEPTION_STATUSES,
  type ExceptionSummary,
} from '@/shared/clearance-exceptions/model/types';
import type { Declaration } from '@/shared/declarations/model/types';

describe('statuses', () => {
  it('gives every status of spec 4 its own badge colour and a filter value; 5 is unused', () => {
    expect(EXCEPTION_STATUSES).toEqual([1, 2, 3, 4, 6, 7]);
    const colours = EXCEPTION_STATUSES.map((s) => STATUS_COLORS[s]);
    expect(colours.every(Boolean)).toBe(true);
    expect(new Set(colours).size).toBe(colours.length);
    expect(STATUS_FILTER_VALUES).toEqual(['-1', '1', '2', '3', '4', '6', '7']);
    expect(STATUS_FILTER_VALUES).not.toContain('5');
  });

  it('offers each role only the moves of DOMAIN.md', () => {
    expect(allowedExceptionActions('OPERATOR', 1)).toEqual(['notify', 'void']);
    // staff may send the notice again while it waits on the customer
    expect(allowedExceptionActions('OPERATOR', 2)).toEqual(['notify', 'void']);
    // an operator may confirm for the customer (with a note); an admin resends or voids
    expect(allowedExceptionActions('OPERATOR', 3)).toEqual(['respond', 'notify', 'void']);
    expect(allowedExceptionActions('ADMIN', 3)).toEqual(['notify', 'void']);
    // 4 -> 7 is for admins only
    expect(allowedExceptionActions('OPERATOR', 4)).toEqual(['approve', 'reject']);
    expect(allowedExceptionActions('ADMIN', 4)).toEqual(['approve', 'reject', 'void']);
    expect(allowedExceptionActions('SUPER_ADMIN', 4)).toEqual(['approve', 'reject', 'void']);
    for (const role of ['OPERATOR', 'ADMIN', 'CUSTOMER'] as const) {
      expect(allowedExceptionActions(role, 6)).toEqual([]);
      expect(allowedExceptionActions(role, 7)).toEqual([]);
    }
    expect(allowedExceptionActions('CUSTOMER', 1)).toEqual([]);
    expect(allowedExceptionActions('CUSTOMER', 2)).toEqual(['acknowledge']);
    expect(allowedExceptionActions('CUSTOMER', 3)).toEqual(['respond']);
    expect(allowedExceptionActions('CUSTOMER', 4)).toEqual([]);
    expect(allowedExceptionActions(null, 1)).toEqual([]);
  });

  it('lets customers upload while asked and staff while the exception is open', () => {
    expect([1, 2, 3, 4, 6, 7].filter((s) => canUpload('CUSTOMER', s))).toEqual([2, 3]);
    expect([1, 2, 3, 4, 6, 7].filter((s) => canUpload('OPERATOR', s))).toEqual([1, 2, 3, 4]);
  });
});

function valid(): ExceptionFormValues {
  const v = emptyExceptionForm();
  v.documents.isCommercialInvoiceChecked = true;
  v.exceptionSummary = '  Commercial invoice missing ';
  v.exceptionDetails = [
    { exceptionCode: 'CI01', exceptionDescription: 'No invoice', exceptionHandling: '' },
  ];
  v.contacts.recipientEmail = 'buyer@example.com';
  return v;
}

describe('the exception form', () => {
  it('reads the requested documents of a list row back to the flags of the form', () => {
    expect(requestedDocumentFlag('commercialInvoice')).toBe('isCommercialInvoiceChecked');
    expect(requestedDocumentFlag('poa')).toBe('isPoaChecked');
    expect(requestedDocumentFlag('Bill of lading')).toBeNull();
  });

  it('has the thirteen document flags of the spec', () => {
    expect(DOCUMENT_FLAGS).toHaveLength(13);
    expect(Object.keys(emptyExceptionForm().documents)).toEqual([...DOCUMENT_FLAGS]);
  });

  it('accepts a complete form', () => {
    expect(validateExceptionForm(valid())).toEqual({});
  });

  it('needs a summary, something asked and a channel with a contact', () => {
    const v = emptyExceptionForm();
    v.channels.sendToEmail = false;
    expect(validateExceptionForm(v)).toEqual({
      exceptionSummary: 'rule.summaryRequired',
      documents: 'rule.nothingAsked',
      channels: 'rule.noChannel',
    });
    // a line with only its handling names the description, as the server does
    v.exceptionDetails[0].exceptionHandling = 'send again';
    expect(validateExceptionForm(v)).toMatchObject({
      'exceptionDetails[0].exceptionDescription': 'rule.detailRequired',
    });
    const w = valid();
    w.contacts.recipientEmail = '';
    w.channels.sendToSms = true;
    w.channels.sendToWechat = true;
    expect(validateExceptionForm(w)).toEqual({
      'channels.sendToEmail': 'rule.noEmailContact',
      'channels.sendToSms': 'rule.noSmsContact',
      'channels.sendToWechat': 'rule.noWechatContact',
    });
    w.personalEmail = 'me@example.com';
    w.personalPhone = '+86 138 0000 0000';
    w.contacts.shipperWechat = 'oABC123';
    expect(validateExceptionForm(w)).toEqual({});
  });

  it('counts a proposed change as something asked, and needs its new value to differ', () => {
    const v = valid();
    v.documents.isCommercialInvoiceChecked = false;
    v.changes.isExchangeHtsCodeChecked = true;
    v.current.htsCode = '8471309000';
    expect(validateExceptionForm(v)).toEqual({ newHtsCode: 'rule.newValueRequired' });
    v.proposed.htsCode = '8471309000';
    expect(validateExceptionForm(v)).toEqual({ newHtsCode: 'rule.sameValue' });
    v.proposed.htsCode = '847141';
    expect(validateExceptionForm(v)).toEqual({ newHtsCode: 'rule.hsCode' });
    v.proposed.htsCode = '8471414000';
    expect(validateExceptionForm(v)).toEqual({});
    v.changes.isExchangeCustomsCodeChecked = true;
    v.proposed.customsCode = '2233abc';
    v.changes.isExchangeCreditCodeChecked = true;
    v.proposed.creditCode = '91310000MA1FL0000';
    expect(validateExceptionForm(v)).toEqual({
      newCustomsCode: 'rule.customsCode',
      newCreditCode: 'rule.creditCode',
    });
    v.proposed.customsCode = '2233ABC123';
    v.proposed.creditCode = '91310000MA1FL00000';
    expect(validateExceptionForm(v)).toEqual({});
  });

  it('checks e-mail and phone shapes and blank list entries', () => {
    const v = valid();
    v.contacts.shipperEmail = 'not-an-address';
    v.contacts.recipientSms = 'abc';
    v.otherDocuments = ['Bill of lading', '  '];
    expect(validateExceptionForm(v)).toEqual({
      'notificationContact.shipperEmail': 'rule.email',
      'notificationContact.recipientSms': 'rule.phone',
      'otherDocuments[1]': 'rule.required',
    });
  });

  it('sends a trimmed body: the new values of checked changes, contacts without blanks', () => {
    const v = valid();
    v.changes.isUpdateProductDescriptionChecked = true;
    v.current.productDescription = 'toy';
    v.proposed.productDescription = ' plastic toy car ';
    v.proposed.htsCode = '8471414000';
    v.exceptionDetails.push({
      exceptionCode: ' ',
      exceptionDescription: '',
      exceptionHandling: '',
    });
    v.otherDocuments = [' Bill of lading '];
    const body = toExceptionBody(v);
    expect(body).toMatchObject({
      isCommercialInvoiceChecked: true,
      isPassportChecked: false,
      isUpdateProductDescriptionChecked: true,
      isExchangeHtsCodeChecked: false,
      sendToEmail: true,
      exceptionSummary: 'Commercial invoice missing',
      otherDocuments: ['Bill of lading'],
      personalPhone: null,
      exceptionDetails: [
        { exceptionCode: 'CI01', exceptionDescription: 'No invoice', exceptionHandling: '' },
      ],
      newProductDescription: 'plastic toy car',
      notificationContact: { recipientEmail: 'buyer@example.com' },
    });
    // an unchecked change sends no value; the blank detail line is dropped
    expect(body).not.toHaveProperty('newHtsCode');
    expect(body.exceptionDetails).toHaveLength(1);
    expect(
      requestedItems(body, [
        { kind: 'productDescription', field: 'x', old: 'toy', new: 'plastic toy car' },
      ]),
    ).toEqual({
      documents: ['isCommercialInvoiceChecked'],
      otherDocuments: ['Bill of lading'],
      changes: [{ field: 'productDescription', old: 'toy', new: 'plastic toy car' }],
    });
  });

  it('shows the values the changes replace as the server reads them, and the contacts', () => {
    const d = {
      consigneeScc: '91310000MA1FL00000',
      consigneeCustomMaster: '2233ABC123',
      shipperPhone: '13800000000',
      shipperAccount: 'A12345',
      declarationGoodsInfo: [
        { goodsCode: '8471309000', goodsName: 'Laptop', specification: 'brand X' },
      ],
    } as unknown as Declaration;
    const v = emptyExceptionForm(d);
    expect(v.current).toEqual({
      htsCode: '8471309000',
      creditCode: '91310000MA1FL00000',
      customsCode: '2233ABC123',
      productDescription: 'Laptop',
      declareElement: 'brand X',
    });
    expect(v.contacts.shipperSms).toBe('13800000000');
    expect(v.contacts.upsAccount).toBe('A12345');
  });
});

describe('list, export and paths', () => {
  it('fixes the shipment type by page and drops "all", blanks and foreign types', () => {
    const table = { pageNo: 2, pageSize: 10, sort: 'createdAt,desc' };
    expect(
      exceptionListParams(
        'import',
        table,
        {
          declarationType: 'OC',
          status: '-1',
          port: ' PVG ',
          trackingNumber: '1Z1, 1Z2\n1Z1',
          fromDate: '20261101',
          toDate: '',
        },
        'staff',
      ),
    ).toEqual({
      ...table,
      shipmentType: 0,
      port: 'PVG',
      trackingNumber: '1Z1,1Z2',
      fromDate: '20261101',
    });
    expect(
      exceptionListParams(
        'export',
        table,
        { declarationType: 'OC', status: '3', port: 'PVG' },
        'customer',
      ),
    ).toEqual({ ...table, shipmentType: 1, declarationType: 'OC', status: '3' });
  });

  it('turns "all" into empty values for the export and keeps sort and format', () => {
    const draft = initialExceptionExport({
      shipmentType: '1',
      fromDate: '20261101',
      toDate: '20261124',
    });
    expect(toExceptionExportForm(draft)).toEqual({
      declarationType: '',
      port: '',
      shipmentType: '1',
      status: '',
      fromDate: '20261101',
      toDate: '20261124',
      sort: '2',
      exportFormat: '01',
    });
    expect(
      toExceptionExportForm({
        ...draft,
        shipmentType: '-1',
        status: '4',
        sort: '1',
        exportFormat: '03',
      }),
    ).toMatchObject({ shipmentType: '', status: '4', sort: '1', exportFormat: '03' });
  });

  it('builds the pages of both areas', () => {
    expect(exceptionListPath('staff', 'import')).toBe('/clearance-exception/import');
    expect(exceptionDetailPath('customer', 'a b')).toBe('/customer-exception/detail?id=a%20b');
    expect(exceptionCreatePath('staff', 'd1')).toBe(
      '/clearance-exception/createException?declarationId=d1',
    );
    expect(exceptionCreatePath('customer')).toBe('/customer-exception/createException');
  });

  it('writes the age in its two largest units', () => {
    const t = (key: string, v?: Record<string, unknown>) => `${key}:${JSON.stringify(v)}`;
    const now = new Date('2026-11-24T12:00:00+08:00');
    expect(ageText('2026-11-21T08:30:00+08:00', t, now)).toBe('age.daysHours:{"days":3,"hours":3}');
    expect(ageText('2026-11-24T09:50:00+08:00', t, now)).toBe(
      'age.hoursMinutes:{"hours":2,"minutes":10}',
    );
    expect(ageText('2026-11-24T11:55:00+08:00', t, now)).toBe('age.minutes:{"minutes":5}');
    expect(ageText(null, t, now)).toBe('');
    // the server's minutes win over the client's clock
    expect(ageText('2026-11-24T11:55:00+08:00', t, now, 61)).toBe(
      'age.hoursMinutes:{"hours":1,"minutes":1}',
    );
  });

  it('puts the longest waiting first across pages and keeps the limit', () => {
    const at = (id: string, statusSince: string | null) =>
      ({ id, statusSince }) as unknown as ExceptionSummary;
    const rows = longestWaiting(
      [at('a', '2026-11-20T10:00:00+08:00'), at('b', null)],
      [at('c', '2026-11-19T10:00:00+08:00'), at('d', '2026-11-21T10:00:00+08:00')],
      3,
    );
    expect(rows.map((r) => r.id)).toEqual(['c', 'a', 'd']);
  });
});
