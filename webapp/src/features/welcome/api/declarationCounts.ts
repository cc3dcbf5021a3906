import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface DeclarationCountsQuery {
  shipmentType?: number;
  /** YYYYMMDD, inclusive. */
  fromDate?: string;
  toDate?: string;
}

export interface DeclarationCounts {
  byStatus: { declarationType: string; status: number; count: number }[];
  perDay: { date: string; count: number }[];
}

/** GET /api/v1/declarations/counts. */
export function getDeclarationCounts(query: DeclarationCountsQuery): Promise<DeclarationCounts> {
  return request<DeclarationCounts>('/api/v1/declarations/counts', { params: { ...query } });
}

export const declarationCountsQueryOptions = (query: DeclarationCountsQuery) =>
  queryOptions({
    queryKey: ['declarations', 'counts', query],
    queryFn: () => getDeclarationCounts(query),
    placeholderData: keepPreviousData,
  });

export function useDeclarationCounts(query: DeclarationCountsQuery) {
  return useQuery(declarationCountsQueryOptions(query));
}
