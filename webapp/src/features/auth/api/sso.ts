// Staff single sign-on (docs/sso.md): whether it is on, start, callback, logout URL.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface SsoConfig {
  enabled: boolean;
  startUrl?: string | null;
  callbackUrl?: string | null;
  logoutUrl?: string | null;
  redirectUris?: string[];
}

/** GET /api/v1/sso/config (public). */
export function getSsoConfig(): Promise<SsoConfig> {
  return request<SsoConfig>('/api/v1/sso/config', { hiddenLoading: true, hideErrorMessage: true });
}

export const ssoConfigQueryOptions = () =>
  queryOptions({ queryKey: ['auth', 'sso-config'], queryFn: getSsoConfig, staleTime: 5 * 60_000 });

export function useSsoConfig() {
  return useQuery(ssoConfigQueryOptions());
}

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

/** POST /api/v1/sso/callback: our token, or 10000 with `data.reason`. */
export function finishSso(input: { code: string; state: string; codeVerifier: string }) {
  return request<string>('/api/v1/sso/callback', {
    method: 'POST',
    body: input,
    hideErrorMessage: true,
  });
}

/** GET /api/v1/sso/logout-url (signed in): the provider's end-session URL, or null. */
export async function getSsoLogoutUrl(): Promise<string | null> {
  const answer = await request<{ logoutUrl: string | null }>('/api/v1/sso/logout-url', {
    hiddenLoading: true,
    hideErrorMessage: true,
  });
  return answer?.logoutUrl ?? null;
}
