// POST /api/v1/account/password/reset (the mailed reset link's token)
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { NewPasswordFields } from './newPasswordFields';

export interface ResetPasswordInput extends NewPasswordFields {
  token: string;
}

/** POST /api/v1/account/password/reset; the page shows failures (not toasted). */
export function resetPassword(input: ResetPasswordInput) {
  return request<CommandAnswer>('/api/v1/account/password/reset', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
