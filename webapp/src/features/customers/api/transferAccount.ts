// POST /api/v1/accounts/{id}/transfer `{newUsername, reason?}`: the account moves to a new
// login
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { accountPath } from './accountPath';
import { customerKeys } from '@/shared/customers/api/keys';

export interface TransferAccountInput {
  accountId: string;
  /** The login the account moves to. */
  newUsername: string;
  reason?: string;
}

/** POST /api/v1/accounts/{id}/transfer; errors are not toasted (the dialog shows them). */
export function transferAccount({
  accountId,
  newUsername,
  reason,
}: TransferAccountInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${accountPath(accountId)}/transfer`, {
    method: 'POST',
    body: reason ? { reason, newUsername } : { newUsername },
    hideErrorMessage: true,
  });
}

export function useTransferAccount() {
  return useCommandMutation(transferAccount, [customerKeys.all]);
}
