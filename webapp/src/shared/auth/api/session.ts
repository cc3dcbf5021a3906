import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface SessionInfo {
  userId: string;
  username: string;
  displayName?: string;
  role: string;
  customerId?: string | null;
  /** Signed in with the customer's bound Easy-clear ID in place of the username. */
  easyClearIdLogin?: boolean;
  expiresAt?: string;
}

/** GET /api/v1/session: who am I (with `token` when it is not stored yet). */
export function getSession(token?: string): Promise<SessionInfo> {
  return request<SessionInfo>('/api/v1/session', {
    hideErrorMessage: true,
    headers: token ? { Authorization: `Bearer ${token}` } : undefined,
  });
}

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: ['auth', 'session'], queryFn: () => getSession(), staleTime: 60_000 });

export function useSession() {
  return useQuery(sessionQueryOptions());
}
