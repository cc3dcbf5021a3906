// /api/v1/products: list (GET: keyword, hsCode prefix), suggest (autocomplete), create,
// update (If-Match), delete.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { masterDataKeys } from './keys';
import { recordsApi } from './records';
import type { ProductFields, ProductRecord } from './types';

export const productsApi = recordsApi<ProductFields, ProductRecord>(
  '/api/v1/products',
  masterDataKeys.products,
);

/** GET /api/v1/products/suggest?q=: digits search the HS prefix, text the descriptions. */
export function suggestProducts(params: Params): Promise<ProductRecord[]> {
  return request<ProductRecord[]>(`${productsApi.base}/suggest`, { params, hiddenLoading: true });
}

export function useProductSuggestions(q: string, customerId?: string) {
  const params: Params = { q, customerId: customerId || undefined, limit: 10 };
  return useQuery({
    queryKey: masterDataKeys.productSuggest(params),
    queryFn: () => suggestProducts(params),
    enabled: q.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}
