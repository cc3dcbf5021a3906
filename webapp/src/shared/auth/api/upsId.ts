import { request } from '@/lib/request';
import { fromUnicodeEscape } from '@/lib/unicodeEscape';

/**
 * GET /api/v1/ups-id (customer): the Easy-clear ID the customer bound, decoded from the
 * unicode-escaped form the server answers; null while nothing is bound.
 */
export async function getUpsId(
  options: { hideErrorMessage?: boolean } = {},
): Promise<string | null> {
  const escaped = await request<string | null>('/api/v1/ups-id', options);
  return typeof escaped === 'string' ? fromUnicodeEscape(escaped) : null;
}
