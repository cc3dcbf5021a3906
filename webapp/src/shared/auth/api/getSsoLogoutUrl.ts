// GET /api/v1/sso/logout-url: where a signed-on staff member ends the provider's session
import { request } from '@/lib/request';

/** GET /api/v1/sso/logout-url (signed in): the provider's end-session URL, or null. */
export async function getSsoLogoutUrl(): Promise<string | null> {
  const answer = await request<{ logoutUrl: string | null }>('/api/v1/sso/logout-url', {
    hiddenLoading: true,
    hideErrorMessage: true,
  });
  return answer?.logoutUrl ?? null;
}
