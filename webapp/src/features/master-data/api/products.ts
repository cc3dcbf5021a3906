// /api/v1/products: list (GET: keyword, hsCode prefix), suggest (autocomplete), create,
// update (If-Match), delete.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { CommandAnswer, Page } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { masterDataKeys } from './keys';
import type { ProductFields, ProductRecord } from './types';

const BASE = '/api/v1/products';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export function getProducts(params: Params): Promise<Page<ProductRecord>> {
  return request<Page<ProductRecord>>(BASE, { params: { ...params, ...minPositionParam() } });
}

export const productsQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: masterDataKeys.productList(params),
    queryFn: () => getProducts(params),
    placeholderData: keepPreviousData,
  });

export function useProducts(params: Params) {
  return useQuery(productsQueryOptions(params));
}

/** GET /api/v1/products/suggest?q=: digits search the HS prefix, text the descriptions. */
export function suggestProducts(params: Params): Promise<ProductRecord[]> {
  return request<ProductRecord[]>(`${BASE}/suggest`, { params, hiddenLoading: true });
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

export type ProductBody = ProductFields & { customerId?: string };

export function createProduct(body: ProductBody): Promise<CommandAnswer> {
  return request(BASE, { method: 'POST', body, hideErrorMessage: true });
}

export function updateProduct(input: {
  id: string;
  version: number;
  body: ProductFields;
}): Promise<CommandAnswer> {
  return request(path(input.id), {
    method: 'PUT',
    body: input.body,
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

export function deleteProduct(input: { id: string; version: number }): Promise<CommandAnswer> {
  return request(path(input.id), {
    method: 'DELETE',
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

export const useCreateProduct = () => useCommandMutation(createProduct, [masterDataKeys.products]);
export const useUpdateProduct = () => useCommandMutation(updateProduct, [masterDataKeys.products]);
export const useDeleteProduct = () => useCommandMutation(deleteProduct, [masterDataKeys.products]);
