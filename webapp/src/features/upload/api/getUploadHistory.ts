// GET /api/v1/upload/query/log/history: the history drawer's pages.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Page } from '@/lib/apiTypes';
import { request, type Params } from '@/lib/request';
import type { UploadRecord } from '../model/types';
import { uploadKeys } from './keys';

export function getUploadHistory(params: Params): Promise<Page<UploadRecord>> {
  return request<Page<UploadRecord>>('/api/v1/upload/query/log/history', { params });
}

export const uploadHistoryQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: uploadKeys.history(params),
    queryFn: () => getUploadHistory(params),
    placeholderData: keepPreviousData,
  });

export function useUploadHistory(params: Params, enabled = true) {
  return useQuery({ ...uploadHistoryQueryOptions(params), enabled });
}
