// POST /auth/logout
import { request } from '@/lib/request';

/** POST /auth/logout: revokes the session. Failures do not stop a logout. */
export function logoutRequest(): Promise<null> {
  return request<null>('/auth/logout', {
    method: 'POST',
    hiddenLoading: true,
    hideErrorMessage: true,
  });
}
