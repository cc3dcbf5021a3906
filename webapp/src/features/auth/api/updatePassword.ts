// POST /api/v1/account/password/update (a required new password: login's 10003 token)
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { NewPasswordFields } from './newPasswordFields';

export interface UpdatePasswordInput extends NewPasswordFields {
  tempToken: string;
}

/** POST /api/v1/account/password/update; the page shows failures (not toasted). */
export function updatePassword(input: UpdatePasswordInput) {
  return request<CommandAnswer>('/api/v1/account/password/update', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
