import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { CustomsTimeline } from '../model/types';
import { customsKeys } from './keys';

/** GET /api/v1/declarations/{id}/customs: the declaration's customs timeline. */
export function getDeclarationCustoms(id: string): Promise<CustomsTimeline> {
  return request<CustomsTimeline>(`/api/v1/declarations/${encodeURIComponent(id)}/customs`, {
    params: { ...minPositionParam() },
    hideErrorMessage: true,
  });
}

export const declarationCustomsQueryOptions = (id: string) =>
  queryOptions({
    queryKey: customsKeys.timeline(id),
    queryFn: () => getDeclarationCustoms(id),
  });

export function useDeclarationCustoms(id: string | null) {
  return useQuery({ ...declarationCustomsQueryOptions(id ?? ''), enabled: !!id });
}
