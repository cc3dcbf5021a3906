// GET /api/v1/port/slic-info (spec 7): every port with its facility SLICs, for the export
// dialog and the customer form. Errors are not toasted: callers fall back to text inputs.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import { platformKeys } from './keys';
import type { PortRecord } from './types';
import { retryReadBehindOnly } from '@/lib/queryClient';

export function getPortSlicInfo(): Promise<PortRecord[]> {
  return request<PortRecord[]>('/api/v1/port/slic-info', {
    params: minPositionParam(),
    hideErrorMessage: true,
    hiddenLoading: true,
  });
}

export const portSlicInfoQueryOptions = () =>
  queryOptions({
    queryKey: platformKeys.slicInfo,
    queryFn: getPortSlicInfo,
    staleTime: 5 * 60_000,
    retry: retryReadBehindOnly,
  });

export function usePortSlicInfo(enabled = true) {
  return useQuery({ ...portSlicInfoQueryOptions(), enabled });
}
