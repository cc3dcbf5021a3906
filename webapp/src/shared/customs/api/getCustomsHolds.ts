import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { CustomsHolds } from '../model/types';
import { customsKeys } from './keys';

/** GET /api/v1/customs/holds: what customs holds, oldest first, with counts by age. */
export function getCustomsHolds(silentHours: number, limit = 10): Promise<CustomsHolds> {
  return request<CustomsHolds>('/api/v1/customs/holds', {
    params: { silentHours, limit },
    hideErrorMessage: true,
  });
}

export const customsHoldsQueryOptions = (silentHours: number) =>
  queryOptions({
    queryKey: customsKeys.holds(silentHours),
    queryFn: () => getCustomsHolds(silentHours),
  });

export function useCustomsHolds(silentHours: number, enabled = true) {
  return useQuery({ ...customsHoldsQueryOptions(silentHours), enabled });
}
