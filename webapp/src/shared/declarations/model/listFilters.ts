// The list pages' filters as they live in the URL (STYLE habit 10) and as the list
// endpoint wants them. Names are the API's, so a URL such as `?status=1&fromDate=20261101`
// from a welcome page opens the filtered list.
import type { Params } from '@/lib/request';

export const LIST_FILTER_KEYS = [
  'trackingNumber',
  'status',
  'username',
  'port',
  'customsReceipt',
  'entryId',
  'fromDate',
  'toDate',
] as const;
export type ListFilterKey = (typeof LIST_FILTER_KEYS)[number];
export type ListFilters = Record<ListFilterKey, string>;

/** Status filter values of spec 4, "all" first. */
export const STATUS_FILTER_VALUES = ['-1', '0', '1', '2', '3', '4', '10', '11', '5'] as const;

export const LIST_SORT_FIELDS = [
  'createdAt',
  'updatedAt',
  'trackingNumber',
  'status',
  'estimatedPickupTime',
  'declarationType',
] as const;

/**
 * Tracking numbers as the user typed them (comma, whitespace or newline separated) ->
 * the API's comma-separated list, duplicates and blanks dropped.
 */
export function normalizeTrackingNumbers(input: string): string {
  const seen = new Set<string>();
  for (const part of input.split(/[\s,，;；]+/)) {
    const v = part.trim();
    if (v) seen.add(v);
  }
  return [...seen].join(',');
}

/** A filter value from a status select: "-1" (all) is dropped from the URL. */
export function statusForUrl(value: string | null | undefined): string {
  return !value || value === '-1' ? '' : value;
}

/**
 * The list endpoint's query: paging/sort from the table state, the filters from the URL,
 * the page's fixed type, and "all" values dropped.
 */
export function listApiParams(
  declarationType: string,
  tableParams: Params,
  filters: Partial<ListFilters>,
  area: 'customer' | 'staff',
): Params {
  const params: Params = { ...tableParams, declarationType };
  for (const key of LIST_FILTER_KEYS) {
    const value = filters[key]?.trim();
    if (!value || (key === 'status' && value === '-1')) {
      delete params[key];
      continue;
    }
    // Customers never filter by customer or port (the server restricts them anyway).
    if (area === 'customer' && (key === 'username' || key === 'port')) {
      delete params[key];
      continue;
    }
    params[key] = key === 'trackingNumber' ? normalizeTrackingNumbers(value) : value;
  }
  return params;
}
