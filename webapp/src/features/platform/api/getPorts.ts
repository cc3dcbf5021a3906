// GET /api/v1/ports: keyword, pageNo, pageSize (ports:management).
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { Page } from '@/lib/apiTypes';
import { platformKeys } from '@/shared/platform/api/keys';
import type { PortRecord } from '@/shared/platform/api/types';

export function getPorts(params: Params): Promise<Page<PortRecord>> {
  return request<Page<PortRecord>>('/api/v1/ports', {
    params: { ...params, ...minPositionParam() },
  });
}

export const portsQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: platformKeys.portList(params),
    queryFn: () => getPorts(params),
    placeholderData: keepPreviousData,
  });

export function usePorts(params: Params) {
  return useQuery(portsQueryOptions(params));
}
