import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { Wire } from '@/shared/api/wire';
import { channelKeys } from './keys';

export type CustomsSummary = Wire<'Summary'>;

/** GET /api/v1/customs/summary: the channel at a glance. */
export function getCustomsSummary(): Promise<CustomsSummary> {
  return request<CustomsSummary>('/api/v1/customs/summary', { hideErrorMessage: true });
}

export const customsSummaryQueryOptions = () =>
  queryOptions({ queryKey: channelKeys.summary, queryFn: getCustomsSummary });

export function useCustomsSummary() {
  return useQuery({ ...customsSummaryQueryOptions(), refetchInterval: 30_000 });
}
