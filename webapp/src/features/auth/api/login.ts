import { useMutation } from '@tanstack/react-query';
import { ApiError, request } from '@/lib/request';
import { storage } from '@/lib/storage';

export interface LoginInput {
  username: string;
  password: string;
}

/** POST /auth/login, form-encoded (the contract). Resolves with the token. */
export function login(input: LoginInput): Promise<string> {
  return request<string>('/auth/login', {
    method: 'POST',
    form: { username: input.username, password: input.password },
    // The login page shows the failure itself (spec 7: default error message hidden).
    hideErrorMessage: true,
  });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

/**
 * Login codes that continue elsewhere (spec 4): 10002 new user -> /pass-reset (temporary
 * token stored), 10003 -> /pass-update, 10004 -> /account-transfer (authorization stored).
 * Returns the path to go to, or null when the error is a plain failure.
 */
export function loginContinuation(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const data = (error.data ?? {}) as { tempToken?: string; transferAuthorization?: unknown };
  switch (error.code) {
    case 10002:
      if (data.tempToken) storage.set('tempToken', data.tempToken);
      return '/pass-reset';
    case 10003:
      return '/pass-update';
    case 10004:
      storage.setJson('transferAuthorization', data.transferAuthorization ?? data);
      return '/account-transfer';
    default:
      return null;
  }
}
