import { queryOptions, useQueries, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { RefTable } from '@/shared/declarations/model/fields';

export interface ReferenceRow {
  code: string;
  name: string;
  nameEn?: string | null;
  [key: string]: unknown;
}

/** GET /api/v1/reference/{table}: the rows in force today (cached for the page's life). */
export function getReference(table: RefTable): Promise<ReferenceRow[]> {
  return request<ReferenceRow[]>(`/api/v1/reference/${table}`, { hiddenLoading: true });
}

export const referenceQueryOptions = (table: RefTable) =>
  queryOptions({
    queryKey: ['reference', table],
    queryFn: () => getReference(table),
    staleTime: Infinity,
    gcTime: Infinity,
  });

export function useReference(table: RefTable | undefined) {
  return useQuery({ ...referenceQueryOptions(table ?? 'countries'), enabled: Boolean(table) });
}

/** Several tables at once: `{table: rows}` of those loaded so far. */
export function useReferences(tables: readonly RefTable[]) {
  return useQueries({
    queries: tables.map((t) => referenceQueryOptions(t)),
    combine: (results) => {
      const data: Partial<Record<RefTable, ReferenceRow[]>> = {};
      results.forEach((r, i) => {
        if (r.data) data[tables[i]] = r.data;
      });
      return data;
    },
  });
}
