// POST /api/v1/sso/start: where the staff sign-on begins (docs/sso.md)
import { request } from '@/lib/request';

export interface SsoStart {
  authorizationUrl: string;
  state: string;
  codeVerifier: string;
}

/** POST /api/v1/sso/start: the provider's URL plus this tab's state and PKCE verifier. */
export function startSso(redirectUri: string): Promise<SsoStart> {
  return request<SsoStart>('/api/v1/sso/start', {
    method: 'POST',
    body: { redirectUri },
    hideErrorMessage: true,
  });
}
