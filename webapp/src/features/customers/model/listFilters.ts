// The archive list's filters as they live in the URL and as GET /api/v1/customers wants them.
import type { Params } from '@/lib/request';

export const CUSTOMER_FILTER_KEYS = ['keyword', 'status', 'declarationType'] as const;
export type CustomerFilterKey = (typeof CUSTOMER_FILTER_KEYS)[number];
export type CustomerFilters = Record<CustomerFilterKey, string>;

export const CUSTOMER_STATUSES = ['active', 'disabled'] as const;

/** Paging from the table state plus the filters that are set (blank = all, left out). */
export function customerListParams(tableParams: Params, filters: Partial<CustomerFilters>): Params {
  const params: Params = { pageNo: tableParams.pageNo, pageSize: tableParams.pageSize };
  for (const key of CUSTOMER_FILTER_KEYS) {
    const value = filters[key]?.trim();
    if (value) params[key] = value;
  }
  return params;
}
