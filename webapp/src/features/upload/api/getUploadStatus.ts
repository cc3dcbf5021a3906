// GET /api/v1/upload/log/status?fileIdList=: the records being polled.
import { request } from '@/lib/request';
import type { UploadRecord } from '../model/types';

/** Quiet: polling shows its own warning on failure. */
export function getUploadStatus(fileIds: readonly string[]): Promise<UploadRecord[]> {
  return request<UploadRecord[]>('/api/v1/upload/log/status', {
    params: { fileIdList: fileIds },
    hiddenLoading: true,
    hideErrorMessage: true,
  });
}
