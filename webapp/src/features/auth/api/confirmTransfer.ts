// POST /api/v1/account/transfer/confirm: the new login's password after login answered
// 10004 (an account transfer)
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { NewPasswordFields } from './newPasswordFields';

export interface ConfirmTransferInput extends NewPasswordFields {
  transferAuthorization: string;
}

export interface TransferDone extends CommandAnswer {
  username: string;
}

/** POST /api/v1/account/transfer/confirm; the page shows failures (not toasted). */
export function confirmTransfer(input: ConfirmTransferInput) {
  return request<TransferDone>('/api/v1/account/transfer/confirm', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

export const useConfirmTransfer = () => useMutation({ mutationFn: confirmTransfer });
