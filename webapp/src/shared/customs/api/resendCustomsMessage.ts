import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';

export interface ResendInput {
  id: string;
  reason?: string;
}

/** POST /api/v1/declarations/{id}/customs-messages/resend: send again under a new CopNo. */
export function resendCustomsMessage({ id, reason }: ResendInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(
    `/api/v1/declarations/${encodeURIComponent(id)}/customs-messages/resend`,
    {
      method: 'POST',
      body: reason?.trim() ? { reason: reason.trim() } : {},
      hideErrorMessage: true,
    },
  );
}

export function useResendCustomsMessage() {
  return useCommandMutation(resendCustomsMessage, [['declarations'], ['customs']]);
}
