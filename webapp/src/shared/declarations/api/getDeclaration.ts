import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { Declaration } from '@/shared/declarations/model/types';
import { declarationKeys } from './keys';
import { minPositionParam } from '@/lib/readYourWrites';

/** GET /api/v1/declarations/{id}: the whole declaration with its version. */
export function getDeclaration(id: string): Promise<Declaration> {
  return request<Declaration>(`/api/v1/declarations/${encodeURIComponent(id)}`, {
    params: minPositionParam(),
    hideErrorMessage: true,
  });
}

export const declarationQueryOptions = (id: string) =>
  queryOptions({
    queryKey: declarationKeys.detail(id),
    queryFn: () => getDeclaration(id),
    staleTime: 0,
  });

export function useDeclaration(id: string | null | undefined) {
  return useQuery({ ...declarationQueryOptions(id ?? ''), enabled: Boolean(id) });
}
