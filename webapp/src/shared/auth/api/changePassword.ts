import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface ChangePasswordInput {
  username: string;
  oldPassword: string;
  newPassword: string;
  confirmNewPassword: string;
}

/** POST /api/v1/account/password/change. */
export function changePassword(input: ChangePasswordInput): Promise<unknown> {
  return request('/api/v1/account/password/change', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
