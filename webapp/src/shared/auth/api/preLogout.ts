// The pre-logout request the server may hand out with the session (spec 3): any URL
// and method, sent before POST /auth/logout
import { request } from '@/lib/request';
import type { PreLogoutRequest } from '@/lib/session';

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
