// The exception lists' filters as they live in the URL and as the list endpoint takes them.
import type { Params } from '@/lib/request';
import { normalizeTrackingNumbers } from '@/shared/declarations/model/listFilters';

export const EXCEPTION_FILTER_KEYS = [
  'declarationType',
  'status',
  'port',
  'trackingNumber',
  'fromDate',
  'toDate',
] as const;
export type ExceptionFilterKey = (typeof EXCEPTION_FILTER_KEYS)[number];
export type ExceptionFilters = Record<ExceptionFilterKey, string>;

export type Direction = 'export' | 'import';

/** 1 export, 0 import (spec 4 "Shipment type"). */
export const shipmentTypeOf = (direction: Direction): number => (direction === 'export' ? 1 : 0);

/** The declaration types a list of one direction offers. */
export function declarationTypesOf(direction: Direction): string[] {
  const prefix = direction === 'export' ? 'O' : 'I';
  return ['B', 'C', 'D'].map((c) => `${prefix}${c}`);
}

/**
 * The list endpoint's query: paging and sort from the table, the page's shipment type, and
 * the filters with "all" values and blanks dropped. A declaration type of the other
 * direction (a hand-edited URL) is dropped too.
 */
export function exceptionListParams(
  direction: Direction,
  tableParams: Params,
  filters: Partial<ExceptionFilters>,
  area: 'customer' | 'staff',
): Params {
  const params: Params = { ...tableParams, shipmentType: shipmentTypeOf(direction) };
  for (const key of EXCEPTION_FILTER_KEYS) {
    const value = filters[key]?.trim();
    delete params[key];
    if (!value || value === '-1') continue;
    if (key === 'port' && area === 'customer') continue;
    if (key === 'declarationType' && !declarationTypesOf(direction).includes(value)) continue;
    params[key] = key === 'trackingNumber' ? normalizeTrackingNumbers(value) : value;
  }
  return params;
}
