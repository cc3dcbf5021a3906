import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface PortEntry {
  declarationSlic?: string;
  upsFacilityName?: string;
  upsFacilitySlic?: string;
  slicInfoList?: { upsFacilityName?: string; upsFacilitySlic?: string }[];
  [key: string]: unknown;
}

/**
 * GET /api/v1/port/slic-info (spec 7): ports with their SLIC facilities, for the export
 * dialog. May not exist yet: callers fall back to text inputs when this query fails.
 */
export function getPortSlicInfo(): Promise<PortEntry[]> {
  return request<PortEntry[]>('/api/v1/port/slic-info', {
    hideErrorMessage: true,
    hiddenLoading: true,
  });
}

export const portSlicInfoQueryOptions = () =>
  queryOptions({
    queryKey: ['port', 'slic-info'],
    queryFn: getPortSlicInfo,
    staleTime: 5 * 60_000,
    retry: false,
  });

export function usePortSlicInfo(enabled = true) {
  return useQuery({ ...portSlicInfoQueryOptions(), enabled });
}
