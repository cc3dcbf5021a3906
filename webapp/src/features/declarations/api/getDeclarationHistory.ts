import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { HistoryEntry } from '@/shared/declarations/model/types';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { minPositionParam } from '@/lib/readYourWrites';

/** GET /api/v1/declarations/{id}/history: every event, oldest first. */
export function getDeclarationHistory(id: string): Promise<HistoryEntry[]> {
  return request<HistoryEntry[]>(`/api/v1/declarations/${encodeURIComponent(id)}/history`, {
    params: minPositionParam(),
    hiddenLoading: true,
  });
}

export const declarationHistoryQueryOptions = (id: string) =>
  queryOptions({
    queryKey: declarationKeys.history(id),
    queryFn: () => getDeclarationHistory(id),
    staleTime: 0,
  });

export function useDeclarationHistory(id: string | null | undefined) {
  return useQuery({ ...declarationHistoryQueryOptions(id ?? ''), enabled: Boolean(id) });
}
