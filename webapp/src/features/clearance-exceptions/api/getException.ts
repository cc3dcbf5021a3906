import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { ClearanceException } from '@/shared/clearance-exceptions/model/types';
import { exceptionKeys, exceptionPath } from '@/shared/clearance-exceptions/api/keys';

/** GET /api/v1/clearance-exceptions/{id}: the form, version, documents and deliveries. */
export function getException(id: string): Promise<ClearanceException> {
  return request<ClearanceException>(exceptionPath(id), {
    params: minPositionParam(),
    hideErrorMessage: true,
  });
}

export const exceptionQueryOptions = (id: string) =>
  queryOptions({
    queryKey: exceptionKeys.detail(id),
    queryFn: () => getException(id),
    staleTime: 0,
  });

export function useException(id: string | null | undefined) {
  return useQuery({ ...exceptionQueryOptions(id ?? ''), enabled: Boolean(id) });
}
