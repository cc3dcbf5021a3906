import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { Page } from '@/lib/apiTypes';
import type { CustomerSummary } from '../model/types';
import { customerKeys } from './keys';

export const PICKER_PAGE_SIZE = 20;

/**
 * GET /api/v1/customers?keyword= for the customer pickers: the first matches, quietly
 * (no loading bar, no toast: the picker shows its own state).
 */
export function searchCustomers(keyword: string): Promise<Page<CustomerSummary>> {
  return request<Page<CustomerSummary>>('/api/v1/customers', {
    params: { keyword: keyword || undefined, pageNo: 1, pageSize: PICKER_PAGE_SIZE },
    hiddenLoading: true,
    hideErrorMessage: true,
  });
}

export const customerOptionsQueryOptions = (keyword: string) =>
  queryOptions({
    queryKey: customerKeys.options(keyword),
    queryFn: () => searchCustomers(keyword),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });

export function useCustomerOptions(keyword: string, enabled = true) {
  return useQuery({ ...customerOptionsQueryOptions(keyword), enabled });
}
