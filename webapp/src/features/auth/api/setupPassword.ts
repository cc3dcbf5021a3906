// POST /api/v1/account/password/setup (the first password: login's 10002 token)
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { NewPasswordFields } from './newPasswordFields';

export interface SetupPasswordInput extends NewPasswordFields {
  tempToken: string;
}

/** POST /api/v1/account/password/setup; the page shows failures (not toasted). */
export function setupPassword(input: SetupPasswordInput) {
  return request<CommandAnswer>('/api/v1/account/password/setup', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

export const useSetupPassword = () => useMutation({ mutationFn: setupPassword });
