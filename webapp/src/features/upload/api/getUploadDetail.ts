// GET /api/v1/upload/query/log/history/detail/{id}: a record with its problem rows.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import type { UploadDetail } from '../model/types';
import { uploadKeys } from './keys';

export function getUploadDetail(id: string, params: Params): Promise<UploadDetail> {
  return request<UploadDetail>(
    `/api/v1/upload/query/log/history/detail/${encodeURIComponent(id)}`,
    { params },
  );
}

export const uploadDetailQueryOptions = (id: string, params: Params) =>
  queryOptions({
    queryKey: uploadKeys.detail(id, params),
    queryFn: () => getUploadDetail(id, params),
    placeholderData: keepPreviousData,
  });

export function useUploadDetail(id: string | null, params: Params) {
  return useQuery({ ...uploadDetailQueryOptions(id ?? '', params), enabled: !!id });
}
