// Why a recipient link did not open, as the link page shows it.
import { ApiError } from '@/lib/request';

/** The page key for a refused link: 403 invalid; 409 with the server's reason. */
export function refusal(error: unknown): 'invalid' | 'expired' | 'used' | 'closed' | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 403 || error.status === 404) return 'invalid';
  if (error.status === 409) {
    const reason = (error.data as { reason?: string } | null)?.reason;
    if (reason === 'LINK_EXPIRED') return 'expired';
    if (reason === 'LINK_USED') return 'used';
    return 'closed';
  }
  return null;
}
