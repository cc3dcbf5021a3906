import { queryOptions, useQuery } from '@tanstack/react-query';
import { minPositionParam } from '@/lib/readYourWrites';
import { request } from '@/lib/request';
import type { CustomerDetail } from '@/shared/customers/model/types';
import { customerKeys } from './keys';
import { retryReadBehindOnly } from '@/lib/queryClient';

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
    retry: retryReadBehindOnly,
  });

export function useCustomer(id: string | null | undefined) {
  return useQuery({ ...customerQueryOptions(id ?? ''), enabled: !!id });
}
