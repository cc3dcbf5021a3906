import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { channelKeys } from './keys';

/** POST /api/v1/customs/failed/{name}/reimport: a fixed file back to inbox/. */
export function reimportCustomsFile(name: string): Promise<string> {
  return request<string>(`/api/v1/customs/failed/${encodeURIComponent(name)}/reimport`, {
    method: 'POST',
    hideErrorMessage: true,
  });
}

export function useReimportCustomsFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: reimportCustomsFile,
    onSuccess: () => client.invalidateQueries({ queryKey: channelKeys.all }),
  });
}
