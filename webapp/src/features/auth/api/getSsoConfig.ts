// GET /api/v1/sso/config (public): whether staff single sign-on is on (docs/sso.md)
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
