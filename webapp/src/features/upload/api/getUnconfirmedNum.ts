// GET /api/v1/upload/query/log/un/confirm/num: the header badge.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { uploadKeys } from './keys';

export function getUnconfirmedNum(): Promise<number> {
  return request<number>('/api/v1/upload/query/log/un/confirm/num', {
    hiddenLoading: true,
    hideErrorMessage: true,
  });
}

export const unconfirmedQueryOptions = () =>
  queryOptions({ queryKey: uploadKeys.unconfirmed, queryFn: getUnconfirmedNum, staleTime: 10_000 });

export function useUnconfirmedNum(enabled = true) {
  return useQuery({ ...unconfirmedQueryOptions(), enabled });
}
