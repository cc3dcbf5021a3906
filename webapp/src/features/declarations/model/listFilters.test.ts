import { describe, expect, it } from 'vitest';
import { fromYmd, isoToYmd, toYmd, ymdToIso } from '@/lib/dates';
import {
  listApiParams,
  normalizeTrackingNumbers,
  statusForUrl,
} from '@/shared/declarations/model/listFilters';
import { initialExportDraft, toExportForm, ALL } from '@/shared/declarations/model/exportForm';
import { parseAmendChanges } from './amend';
import { declarationFormPath } from '@/lib/declarations';

describe('URL state of the lists', () => {
  it('normalises tracking numbers typed with commas, spaces and new lines', () => {
    expect(normalizeTrackingNumbers(' 1Z1, 1Z2\n1Z3，1Z1 ;\n\n')).toBe('1Z1,1Z2,1Z3');
    expect(normalizeTrackingNumbers('   ')).toBe('');
  });

  it('drops "all" values and customer-only filters, keeps paging and sort', () => {
    const params = listApiParams(
      'OC',
      { pageNo: 2, pageSize: 10, sort: 'createdAt,desc' },
      {
        status: '-1',
        trackingNumber: '1Z1\n1Z2',
        username: 'acme',
        port: '',
        fromDate: '20261101',
        toDate: '',
      },
      'staff',
    );
    expect(params).toEqual({
      pageNo: 2,
      pageSize: 10,
      sort: 'createdAt,desc',
      declarationType: 'OC',
      trackingNumber: '1Z1,1Z2',
      username: 'acme',
      fromDate: '20261101',
    });
    const customer = listApiParams(
      'IB',
      { pageNo: 1 },
      { status: '11', username: 'x', port: 'PVG' },
      'customer',
    );
    expect(customer).toEqual({ pageNo: 1, declarationType: 'IB', status: '11' });
  });

  it('keeps status "all" out of the URL', () => {
    expect(statusForUrl('-1')).toBe('');
    expect(statusForUrl(null)).toBe('');
    expect(statusForUrl('10')).toBe('10');
  });

  it('converts dates between the URL (YYYYMMDD) and the pickers (YYYY-MM-DD)', () => {
    expect(ymdToIso('20261122')).toBe('2026-11-22');
    expect(ymdToIso('20261340')).toBeNull();
    expect(ymdToIso('')).toBeNull();
    expect(isoToYmd('2026-11-22')).toBe('20261122');
    expect(isoToYmd(null)).toBe('');
    expect(toYmd(new Date(2026, 0, 5))).toBe('20260105');
    expect(fromYmd('20260105')?.getDate()).toBe(5);
  });
});

describe('export form', () => {
  it('defaults to class D, everything else "all"', () => {
    expect(initialExportDraft()).toMatchObject({
      declarationType: 'D',
      username: ALL,
      port: ALL,
      slic: ALL,
      shipmentType: '-1',
      status: '-1',
    });
  });
  it('takes a list page type code as class and direction', () => {
    expect(initialExportDraft({ declarationType: 'IC', status: '2' })).toMatchObject({
      declarationType: 'C',
      shipmentType: '0',
      status: '2',
    });
  });
  it('turns placeholders and -1 into empty values', () => {
    const form = toExportForm({
      ...initialExportDraft(),
      fromDate: '20261101',
      toDate: '20261122',
      sort: '3',
    });
    expect(form).toEqual({
      declarationType: 'D',
      username: '',
      port: '',
      slic: '',
      shipmentType: '',
      status: '',
      fromDate: '20261101',
      toDate: '20261122',
      sort: '3',
    });
  });
});

describe('amend changes', () => {
  it('reads field = value lines, numbers as numbers', () => {
    expect(
      parseAmendChanges(
        'grossWeight = 12.5\ndeclarationGoodsInfo[0].goodsCode = 6109100000\nnote=',
      ),
    ).toEqual({
      changes: { grossWeight: 12.5, 'declarationGoodsInfo[0].goodsCode': 6109100000, note: null },
    });
    expect(parseAmendChanges('ok = 1\nbroken')).toEqual({ badLine: 2 });
  });
});

describe('paths', () => {
  it('sends staff to the submission pages and customers to their detail pages', () => {
    expect(declarationFormPath('staff', 'OC')).toBe('/customers-profile/detail-c/1');
    expect(declarationFormPath('staff', 'ID', 'x')).toBe('/customers-profile/detail/0?id=x');
    expect(declarationFormPath('customer', 'IB')).toBe(
      '/customs-clearance-supply/detail-b/0?new=1',
    );
    expect(declarationFormPath('customer', 'OC', 'x')).toBe(
      '/customs-clearance-supply/detail-c/1?id=x&edit=1',
    );
  });
});
