// GET /api/v1/staff: keyword, pageNo, pageSize (+ minPosition after a command).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { Page } from '@/lib/apiTypes';
import { platformKeys } from '@/shared/platform/api/keys';
import type { StaffRecord } from '@/shared/platform/api/types';

export function getStaff(params: Params): Promise<Page<StaffRecord>> {
  return request<Page<StaffRecord>>('/api/v1/staff', {
    params: { ...params, ...minPositionParam() },
  });
}

export const staffQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: platformKeys.staffList(params),
    queryFn: () => getStaff(params),
    placeholderData: keepPreviousData,
  });

export function useStaff(params: Params) {
  return useQuery(staffQueryOptions(params));
}
