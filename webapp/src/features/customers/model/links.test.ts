import { describe, expect, it } from 'vitest';
import {
  customerDeclarationsPath,
  customerDetailPath,
  fileDeclarationPath,
  filedTypes,
  portOptions,
  slicOptions,
} from './links';
import { customerListParams } from './listFilters';
import { customerOptionLabel } from '@/shared/customers/model/picker';

describe('archive links', () => {
  it('opens the detail page by id', () => {
    expect(customerDetailPath('a b')).toBe('/customers-profile/customers-detail?id=a%20b');
  });

  it('files a declaration on the staff submission page with the customer preselected', () => {
    expect(fileDeclarationPath('OC', 'c-1')).toBe('/customers-profile/detail-c/1?customerId=c-1');
    expect(fileDeclarationPath('ID', 'c-1')).toBe('/customers-profile/detail/0?customerId=c-1');
    expect(fileDeclarationPath('IB', 'c-1')).toBe('/customers-profile/detail-b/0?customerId=c-1');
  });

  it('lists the customer declarations through the username filter', () => {
    expect(customerDeclarationsPath('OC', 'acme')).toBe(
      '/customs-clearance/export/export-c?username=acme',
    );
  });

  it('offers the types the customer files, in order, or all when none is recorded', () => {
    expect(filedTypes(['IC', 'OB', 'XX'])).toEqual(['OB', 'IC']);
    expect(filedTypes([])).toEqual(['OB', 'OC', 'OD', 'IB', 'IC', 'ID']);
    expect(filedTypes(null)).toHaveLength(6);
  });

  it('derives the port and SLIC suggestions from the port list', () => {
    const entries = [
      {
        portCode: 'PVG',
        declarationSlic: 'SHA01',
        slicInfoList: [{ upsFacilitySlic: 'SHA02' }, { upsFacilitySlic: 'SHA01' }],
      },
      { portCode: 'CAN', declarationSlic: 'CAN01' },
      { portCode: 'PVG', declarationSlic: 'SHA03' },
    ];
    expect(portOptions(entries)).toEqual(['PVG', 'CAN']);
    expect(slicOptions(entries, 'PVG')).toEqual(['SHA01', 'SHA02', 'SHA03']);
    expect(slicOptions(entries, '')).toEqual(['SHA01', 'SHA02', 'CAN01', 'SHA03']);
    expect(portOptions(undefined)).toEqual([]);
  });
});

describe('list parameters and labels', () => {
  it('sends paging and only the filters that are set', () => {
    expect(
      customerListParams(
        { pageNo: 2, pageSize: 10, sort: undefined },
        { keyword: ' acme ', status: '', declarationType: 'OC' },
      ),
    ).toEqual({ pageNo: 2, pageSize: 10, keyword: 'acme', declarationType: 'OC' });
  });

  it('labels a customer by username and company', () => {
    expect(customerOptionLabel({ username: 'acme', companyName: 'ACME' })).toBe('acme · ACME');
    expect(customerOptionLabel({ username: 'acme', companyName: null })).toBe('acme');
  });
});
