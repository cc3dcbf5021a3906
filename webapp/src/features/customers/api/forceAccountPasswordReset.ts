// POST /api/v1/accounts/{id}/force-password-reset: with an optional reason
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { accountPath } from './accountPath';
import { customerKeys } from '@/shared/customers/api/keys';

export interface ForceAccountPasswordResetInput {
  accountId: string;
  reason?: string;
}

/** POST /api/v1/accounts/{id}/force-password-reset; errors are not toasted (the dialog shows them). */
export function forceAccountPasswordReset({
  accountId,
  reason,
}: ForceAccountPasswordResetInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${accountPath(accountId)}/force-password-reset`, {
    method: 'POST',
    body: reason ? { reason } : {},
    hideErrorMessage: true,
  });
}

export function useForceAccountPasswordReset() {
  return useCommandMutation(forceAccountPasswordReset, [customerKeys.all]);
}
