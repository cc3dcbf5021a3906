// GET /api/v1/customers: the archive's pages and the customer pickers' first matches, one
// fetcher and one type (a page of CustomerSummary) under the keys ['customers', 'list' |
// 'options', ...].
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { minPositionParam } from '@/lib/readYourWrites';
import { request, type Params } from '@/lib/request';
import type { Page } from '@/lib/apiTypes';
import type { CustomerSummary } from '@/shared/customers/model/types';
import { customerKeys } from './keys';
import { retryReadBehindOnly } from '@/lib/queryClient';

export const PICKER_PAGE_SIZE = 20;

/**
 * GET /api/v1/customers: a page of the archive (keyword, status, declarationType). `quiet`
 * (the pickers): no loading bar and no toast, the picker shows its own state.
 */
export function getCustomers(
  params: Params,
  { quiet = false }: { quiet?: boolean } = {},
): Promise<Page<CustomerSummary>> {
  return request<Page<CustomerSummary>>('/api/v1/customers', {
    params: { ...params, ...minPositionParam() },
    ...(quiet ? { hiddenLoading: true, hideErrorMessage: true } : {}),
  });
}

export const customersQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: customerKeys.list(params),
    queryFn: () => getCustomers(params),
    placeholderData: keepPreviousData,
  });

export function useCustomers(params: Params, enabled = true) {
  return useQuery({ ...customersQueryOptions(params), enabled });
}

/** The pickers: the first matches of `keyword`. */
export const customerOptionsQueryOptions = (keyword: string) =>
  queryOptions({
    queryKey: customerKeys.options(keyword),
    queryFn: () =>
      getCustomers(
        { keyword: keyword || undefined, pageNo: 1, pageSize: PICKER_PAGE_SIZE },
        { quiet: true },
      ),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: retryReadBehindOnly,
  });

export function useCustomerOptions(keyword: string, enabled = true) {
  return useQuery({ ...customerOptionsQueryOptions(keyword), enabled });
}
