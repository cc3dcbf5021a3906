import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import type { Page } from '@/lib/apiTypes';
import { minPositionParam } from '@/lib/readYourWrites';
import type { ExceptionSummary } from '@/shared/clearance-exceptions/model/types';
import { exceptionKeys, exceptionPath } from './keys';

/** GET /api/v1/clearance-exceptions: a page of exceptions (customers get only their own). */
export function getExceptions(params: Params): Promise<Page<ExceptionSummary>> {
  return request<Page<ExceptionSummary>>(exceptionPath(), {
    params: { ...params, ...minPositionParam() },
  });
}

export const exceptionsQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: exceptionKeys.list(params),
    queryFn: () => getExceptions(params),
    placeholderData: keepPreviousData,
  });

export function useExceptions(params: Params) {
  return useQuery(exceptionsQueryOptions(params));
}
