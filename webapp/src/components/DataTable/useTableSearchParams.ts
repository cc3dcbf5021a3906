// Table paging, sorting and filters live in the URL (STYLE habit 10), so a list can be
// linked, reloaded and navigated back to. Names: page, size, sort ("field,asc|desc") and
// each filter under its API name (status, trackingNumber, ...).
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { Params } from '@/lib/request';
import { DEFAULT_PAGE_SIZE } from './pager';

export interface SortValue {
  field: string;
  dir: 'asc' | 'desc';
}

export interface TableUrlState<F extends string = string> {
  page: number;
  pageSize: number;
  sort: SortValue | null;
  filters: Record<F, string>;
  setPage: (page: number) => void;
  setPageSize: (size: number) => void;
  setSort: (sort: SortValue | null) => void;
  /** Sets filters (empty removes) and goes back to page 1. */
  setFilters: (filters: Partial<Record<F, string | number | null | undefined>>) => void;
  resetFilters: () => void;
  /** pageNo, pageSize, sort and the filters, ready for the list endpoint. */
  apiParams: Params;
}

export function parseSort(value: string | null): SortValue | null {
  if (!value) return null;
  const [field, dir] = value.split(',');
  if (!field) return null;
  return { field, dir: dir === 'desc' ? 'desc' : 'asc' };
}

export function formatSort(sort: SortValue | null): string | undefined {
  return sort ? `${sort.field},${sort.dir}` : undefined;
}

export interface TableUrlOptions<F extends string> {
  filterKeys?: readonly F[];
  defaultPageSize?: number;
  defaultSort?: SortValue | null;
  /** Filter values used when the URL has none (e.g. status "-1"). */
  defaultFilters?: Partial<Record<F, string>>;
}

export function useTableSearchParams<F extends string = string>(
  options: TableUrlOptions<F> = {},
): TableUrlState<F> {
  const {
    filterKeys = [],
    defaultPageSize = DEFAULT_PAGE_SIZE,
    defaultSort = null,
    defaultFilters,
  } = options;
  const [params, setParams] = useSearchParams();

  const page = Math.max(1, Number(params.get('page')) || 1);
  const pageSize = Math.max(1, Number(params.get('size')) || defaultPageSize);
  const sortParam = params.get('sort');
  const defaultSortParam = formatSort(defaultSort) ?? null;
  const sort = useMemo(
    () => parseSort(sortParam ?? defaultSortParam),
    [sortParam, defaultSortParam],
  );
  const filterSignature = filterKeys.map((k) => params.get(k) ?? '').join('\u0000');
  const filters = useMemo(() => {
    const values = filterSignature.split('\u0000');
    return Object.fromEntries(
      filterKeys.map((k, i) => [k, values[i] || defaultFilters?.[k] || '']),
    ) as Record<F, string>;
    // filterKeys/defaultFilters are static per table; the signature carries the URL values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filterSignature]);

  const update = useCallback(
    (fn: (next: URLSearchParams) => void) => {
      setParams((prev) => {
        const next = new URLSearchParams(prev);
        fn(next);
        return next;
      });
    },
    [setParams],
  );

  const setPage = useCallback(
    (p: number) => update((n) => (p <= 1 ? n.delete('page') : n.set('page', String(p)))),
    [update],
  );
  const setPageSize = useCallback(
    (size: number) =>
      update((n) => {
        if (size === defaultPageSize) n.delete('size');
        else n.set('size', String(size));
        n.delete('page');
      }),
    [update, defaultPageSize],
  );
  const setSort = useCallback(
    (s: SortValue | null) =>
      update((n) => {
        const value = formatSort(s);
        if (value) n.set('sort', value);
        else n.delete('sort');
        n.delete('page');
      }),
    [update],
  );
  const setFilters = useCallback(
    (values: Partial<Record<F, string | number | null | undefined>>) =>
      update((n) => {
        for (const [k, v] of Object.entries(values) as [string, unknown][]) {
          if (v === undefined || v === null || v === '') n.delete(k);
          else n.set(k, String(v));
        }
        n.delete('page');
      }),
    [update],
  );
  const resetFilters = useCallback(
    () =>
      update((n) => {
        for (const k of filterKeys) n.delete(k);
        n.delete('page');
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [update],
  );

  const apiParams = useMemo<Params>(
    () => ({ pageNo: page, pageSize, sort: formatSort(sort), ...filters }),
    [page, pageSize, sort, filters],
  );

  return {
    page,
    pageSize,
    sort,
    filters,
    setPage,
    setPageSize,
    setSort,
    setFilters,
    resetFilters,
    apiParams,
  };
}
