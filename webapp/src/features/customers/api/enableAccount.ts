// POST /api/v1/accounts/{id}/enable: with an optional reason
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { accountPath } from './accountPath';
import { customerKeys } from '@/shared/customers/api/keys';

export interface EnableAccountInput {
  accountId: string;
  reason?: string;
}

/** POST /api/v1/accounts/{id}/enable; errors are not toasted (the dialog shows them). */
export function enableAccount({ accountId, reason }: EnableAccountInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${accountPath(accountId)}/enable`, {
    method: 'POST',
    body: reason ? { reason } : {},
    hideErrorMessage: true,
  });
}

export function useEnableAccount() {
  return useCommandMutation(enableAccount, [customerKeys.all]);
}
