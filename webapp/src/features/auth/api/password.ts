// The password flows of docs/identity.md: first password (10002), required new password
// (10003), the mailed reset link, forgot password and the account transfer (10004). All are
// public (rate limited by the server) and show their failures on the page.
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';

export interface NewPasswordInput {
  newPassword: string;
  confirmNewPassword: string;
}

/** POST /api/v1/account/password/setup (10002's token). */
export function setupPassword(input: NewPasswordInput & { tempToken: string }) {
  return request<CommandAnswer>('/api/v1/account/password/setup', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

/** POST /api/v1/account/password/update (10003's token). */
export function updatePassword(input: NewPasswordInput & { tempToken: string }) {
  return request<CommandAnswer>('/api/v1/account/password/update', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

/** POST /api/v1/account/password/reset (the mailed link's token). */
export function resetPassword(input: NewPasswordInput & { token: string }) {
  return request<CommandAnswer>('/api/v1/account/password/reset', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

/** What the forgot-password form sends: an e-mail address when it looks like one. */
export function forgotBody(identifier: string): { username: string } | { email: string } {
  const value = identifier.trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? { email: value } : { username: value };
}

/** POST /api/v1/account/password/forgot: always the same answer; resolves with its message. */
export async function forgotPassword(identifier: string): Promise<void> {
  await request<null>('/api/v1/account/password/forgot', {
    method: 'POST',
    body: forgotBody(identifier),
    hideErrorMessage: true,
  });
}

export interface TransferDone extends CommandAnswer {
  username: string;
}

/** POST /api/v1/account/transfer/confirm (10004's authorization). */
export function confirmTransfer(input: NewPasswordInput & { transferAuthorization: string }) {
  return request<TransferDone>('/api/v1/account/transfer/confirm', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

export const useSetupPassword = () => useMutation({ mutationFn: setupPassword });
export const useUpdatePassword = () => useMutation({ mutationFn: updatePassword });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
export const useConfirmTransfer = () => useMutation({ mutationFn: confirmTransfer });
