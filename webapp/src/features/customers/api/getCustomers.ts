import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { minPositionParam } from '@/lib/readYourWrites';
import { request, type Params } from '@/lib/request';
import type { Page } from '@/lib/apiTypes';
import type { CustomerSummary } from '../model/types';
import { customerKeys } from './keys';

/** GET /api/v1/customers: a page of the archive (keyword, status, declarationType). */
export function getCustomers(params: Params): Promise<Page<CustomerSummary>> {
  return request<Page<CustomerSummary>>('/api/v1/customers', {
    params: { ...params, ...minPositionParam() },
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
