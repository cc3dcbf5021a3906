// /api/v1/trade-companies: list (GET), create (POST), update (PUT, If-Match), delete.
import { masterDataKeys } from '@/shared/master-data/api/keys';
import { recordsApi } from '@/shared/master-data/api/records';
import type { TradeCompanyFields, TradeCompanyRecord } from '@/shared/master-data/api/types';

export const tradeCompaniesApi = recordsApi<TradeCompanyFields, TradeCompanyRecord>(
  '/api/v1/trade-companies',
  masterDataKeys.tradeCompanies,
);
