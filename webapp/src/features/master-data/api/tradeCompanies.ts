// /api/v1/trade-companies: list (GET), create (POST), update (PUT, If-Match), delete.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { CommandAnswer, Page } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { masterDataKeys } from './keys';
import type { TradeCompanyFields, TradeCompanyRecord } from './types';

const BASE = '/api/v1/trade-companies';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export function getTradeCompanies(params: Params): Promise<Page<TradeCompanyRecord>> {
  return request<Page<TradeCompanyRecord>>(BASE, { params: { ...params, ...minPositionParam() } });
}

export const tradeCompaniesQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: masterDataKeys.tradeCompanyList(params),
    queryFn: () => getTradeCompanies(params),
    placeholderData: keepPreviousData,
  });

export function useTradeCompanies(params: Params) {
  return useQuery(tradeCompaniesQueryOptions(params));
}

export type TradeCompanyBody = TradeCompanyFields & { customerId?: string };

/** POST; errors are not toasted (the dialog shows them). */
export function createTradeCompany(body: TradeCompanyBody): Promise<CommandAnswer> {
  return request(BASE, { method: 'POST', body, hideErrorMessage: true });
}

export function updateTradeCompany(input: {
  id: string;
  version: number;
  body: TradeCompanyFields;
}): Promise<CommandAnswer> {
  return request(path(input.id), {
    method: 'PUT',
    body: input.body,
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

export function deleteTradeCompany(input: { id: string; version: number }): Promise<CommandAnswer> {
  return request(path(input.id), {
    method: 'DELETE',
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

export const useCreateTradeCompany = () =>
  useCommandMutation(createTradeCompany, [masterDataKeys.tradeCompanies]);
export const useUpdateTradeCompany = () =>
  useCommandMutation(updateTradeCompany, [masterDataKeys.tradeCompanies]);
export const useDeleteTradeCompany = () =>
  useCommandMutation(deleteTradeCompany, [masterDataKeys.tradeCompanies]);
