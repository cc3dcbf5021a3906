import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface Health {
  status: string;
  /** "development" or "production". */
  mode?: string;
  database?: string;
  version?: string;
  commit?: string;
  projections?: { name: string; position: number; lagEvents: number; lagSeconds: number }[];
}

/** GET /api/v1/health. Silent: pages degrade when the API is down. */
export function getHealth(): Promise<Health> {
  return request<Health>('/api/v1/health', { hiddenLoading: true, hideErrorMessage: true });
}

export const healthQueryOptions = () =>
  queryOptions({
    queryKey: ['system', 'health'],
    queryFn: getHealth,
    staleTime: 60_000,
    retry: false,
  });

export function useHealth() {
  return useQuery(healthQueryOptions());
}

export const isDevelopmentMode = (health: Health | undefined) => health?.mode === 'development';
