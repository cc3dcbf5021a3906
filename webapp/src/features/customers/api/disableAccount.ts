// POST /api/v1/accounts/{id}/disable: with an optional reason
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { accountPath } from './accountPath';
import { customerKeys } from '@/shared/customers/api/keys';

export interface DisableAccountInput {
  accountId: string;
  reason?: string;
}

/** POST /api/v1/accounts/{id}/disable; errors are not toasted (the dialog shows them). */
export function disableAccount({ accountId, reason }: DisableAccountInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${accountPath(accountId)}/disable`, {
    method: 'POST',
    body: reason ? { reason } : {},
    hideErrorMessage: true,
  });
}

export function useDisableAccount() {
  return useCommandMutation(disableAccount, [customerKeys.all]);
}
