// POST /api/v1/sso/callback: the provider sent the user back (docs/sso.md)
import { request } from '@/lib/request';

export interface FinishSsoInput {
  code: string;
  state: string;
  codeVerifier: string;
}

/** POST /api/v1/sso/callback: our token, or 10000 with `data.reason`. */
export function finishSso(input: FinishSsoInput) {
  return request<string>('/api/v1/sso/callback', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}
