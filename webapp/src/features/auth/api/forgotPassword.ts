// POST /api/v1/account/password/forgot: mails a reset link; always the same answer, so it
// never tells whether the login exists
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';

/** What the forgot-password form sends: an e-mail address when it looks like one. */
export function forgotBody(identifier: string): { username: string } | { email: string } {
  const value = identifier.trim();
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value) ? { email: value } : { username: value };
}

/** POST /api/v1/account/password/forgot; the page shows failures (not toasted). */
export async function forgotPassword(identifier: string): Promise<void> {
  await request<null>('/api/v1/account/password/forgot', {
    method: 'POST',
    body: forgotBody(identifier),
    hideErrorMessage: true,
  });
}

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
