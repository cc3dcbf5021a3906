import { queryOptions, useQuery } from '@tanstack/react-query';
import { minPositionParam } from '@/lib/readYourWrites';
import { request } from '@/lib/request';
import type { CustomerDetail } from '../model/types';
import { customerKeys } from './keys';

/** GET /api/v1/customers/{id}: the profile with its login accounts. */
export function getCustomer(id: string): Promise<CustomerDetail> {
  return request<CustomerDetail>(`/api/v1/customers/${encodeURIComponent(id)}`, {
    params: minPositionParam(),
    hideErrorMessage: true,
  });
}

export const customerQueryOptions = (id: string) =>
  queryOptions({
    queryKey: customerKeys.detail(id),
    queryFn: () => getCustomer(id),
    retry: false,
  });

export function useCustomer(id: string | null | undefined) {
  return useQuery({ ...customerQueryOptions(id ?? ''), enabled: !!id });
}
