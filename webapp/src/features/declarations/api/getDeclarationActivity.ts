import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import type { Page } from '@/lib/apiTypes';
import type { ActivityEntry } from '@/shared/declarations/model/types';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { minPositionParam } from '@/lib/readYourWrites';

/** GET /api/v1/declarations/activity: the event feed across declarations, newest first. */
export function getDeclarationActivity(params: Params): Promise<Page<ActivityEntry>> {
  return request<Page<ActivityEntry>>('/api/v1/declarations/activity', {
    params: { ...params, ...minPositionParam() },
  });
}

export const declarationActivityQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: declarationKeys.activity(params),
    queryFn: () => getDeclarationActivity(params),
    placeholderData: keepPreviousData,
  });

export function useDeclarationActivity(params: Params) {
  return useQuery(declarationActivityQueryOptions(params));
}
