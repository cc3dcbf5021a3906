import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { ExceptionHistoryEntry } from '@/shared/clearance-exceptions/model/types';
import { exceptionKeys, exceptionPath } from '@/shared/clearance-exceptions/api/keys';

/** GET /api/v1/clearance-exceptions/{id}/history: every event, oldest first. */
export function getExceptionHistory(id: string): Promise<ExceptionHistoryEntry[]> {
  return request<ExceptionHistoryEntry[]>(exceptionPath(id, 'history'), {
    params: minPositionParam(),
    hiddenLoading: true,
  });
}

export const exceptionHistoryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: exceptionKeys.history(id),
    queryFn: () => getExceptionHistory(id),
    staleTime: 0,
  });

export function useExceptionHistory(id: string | null | undefined) {
  return useQuery({ ...exceptionHistoryQueryOptions(id ?? ''), enabled: Boolean(id) });
}
