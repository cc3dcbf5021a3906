import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import type { Page } from '@/lib/apiTypes';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import { declarationKeys } from './keys';
import { minPositionParam } from '@/lib/readYourWrites';

/** GET /api/v1/declarations: a page of declaration summaries. */
export function getDeclarations(params: Params): Promise<Page<DeclarationSummary>> {
  return request<Page<DeclarationSummary>>('/api/v1/declarations', {
    params: { ...params, ...minPositionParam() },
  });
}

export const declarationsQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: declarationKeys.list(params),
    queryFn: () => getDeclarations(params),
    placeholderData: keepPreviousData,
  });

export function useDeclarations(params: Params, enabled = true) {
  return useQuery({ ...declarationsQueryOptions(params), enabled });
}
