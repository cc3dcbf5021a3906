import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import type { Wire } from '@/shared/api/wire';
import { channelKeys } from './keys';

export type SettleBody = Wire<'SettleBody'>;

/** POST /api/v1/customs/anomalies/{id}/settle: attach or dismiss, with a note. */
export function settleCustomsAnomaly({
  id,
  body,
}: {
  id: string;
  body: SettleBody;
}): Promise<CommandAnswer> {
  return request<CommandAnswer>(`/api/v1/customs/anomalies/${encodeURIComponent(id)}/settle`, {
    method: 'POST',
    body,
    hideErrorMessage: true,
  });
}

export function useSettleCustomsAnomaly() {
  return useCommandMutation(settleCustomsAnomaly, [channelKeys.all]);
}
