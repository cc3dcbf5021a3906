// PUT /api/v1/upload/confirm/{id}: marks a result read, silently.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CommandAnswer } from '@/lib/apiTypes';
import { request } from '@/lib/request';
import { uploadKeys } from './keys';

export function confirmUpload(id: string): Promise<CommandAnswer> {
  return request<CommandAnswer>(`/api/v1/upload/confirm/${encodeURIComponent(id)}`, {
    method: 'PUT',
    hiddenLoading: true,
    hideErrorMessage: true,
  });
}

/** Marks read, then refreshes the badge and the history (the read model may lag a moment). */
export function useConfirmUpload() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: confirmUpload,
    onSuccess: () => {
      const refresh = () => void client.invalidateQueries({ queryKey: uploadKeys.all });
      refresh();
      setTimeout(refresh, 1000);
    },
  });
}
