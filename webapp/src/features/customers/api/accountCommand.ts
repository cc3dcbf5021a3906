import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notePosition } from '@/lib/readYourWrites';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { customerKeys } from './keys';

export type AccountCommand = 'disable' | 'enable' | 'force-password-reset' | 'transfer';

export interface AccountCommandInput {
  accountId: string;
  command: AccountCommand;
  reason?: string;
  /** For `transfer`: the login the account moves to. */
  newUsername?: string;
}

/** POST /api/v1/accounts/{id}/{disable|enable|force-password-reset|transfer}. */
export function runAccountCommand(input: AccountCommandInput): Promise<CommandAnswer> {
  const body: Record<string, string> = {};
  if (input.reason) body.reason = input.reason;
  if (input.command === 'transfer') body.newUsername = input.newUsername ?? '';
  return request<CommandAnswer>(
    `/api/v1/accounts/${encodeURIComponent(input.accountId)}/${input.command}`,
    { method: 'POST', body, hideErrorMessage: true },
  );
}

export function useAccountCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runAccountCommand,
    onSuccess: (answer) => {
      notePosition(answer?.position);
      return client.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
}
