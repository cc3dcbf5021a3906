// Query keys of the master data screens; a mutation invalidates its resource's root key.
import type { Params } from '@/lib/request';

export const masterDataKeys = {
  tradeCompanies: ['master-data', 'trade-companies'] as const,
  products: ['master-data', 'products'] as const,
  productSuggest: (params: Params) => ['master-data', 'products', 'suggest', params] as const,
  schemes: ['master-data', 'mapping-schemes'] as const,
  schemeList: (params: Params) => ['master-data', 'mapping-schemes', 'list', params] as const,
  scheme: (id: string) => ['master-data', 'mapping-schemes', 'one', id] as const,
  targets: ['master-data', 'mapping-targets'] as const,
};
