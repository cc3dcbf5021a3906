import { request } from '@/lib/request';
import type { PreLogoutRequest } from '@/lib/session';

/** POST /auth/logout: revokes the session. Failures do not stop a logout. */
export function logoutRequest(): Promise<null> {
  return request<null>('/auth/logout', {
    method: 'POST',
    hiddenLoading: true,
    hideErrorMessage: true,
  });
}

/** The optional pre-logout request the server may hand out (spec 3). */
export function preLogoutRequest(pre: PreLogoutRequest): Promise<unknown> {
  const method = (pre.method?.toUpperCase() ?? 'GET') as 'GET' | 'POST';
  return request(pre.url, {
    method,
    ...(method === 'GET'
      ? { params: pre.params as Record<string, string> | undefined }
      : { body: pre.params }),
    hiddenLoading: true,
    hideErrorMessage: true,
  });
}
