// /api/v1/audit/verifications (audit:read): verification runs of the chain in the background;
// the list is polled every second while its newest run is running.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { complianceKeys } from './audit';
import type { VerificationRun } from './types';

export const verificationKeys = {
  all: [...complianceKeys.all, 'verifications'] as const,
};

export const getVerifications = () => request<VerificationRun[]>('/api/v1/audit/verifications');

export const startVerification = () =>
  request<VerificationRun>('/api/v1/audit/verifications', {
    method: 'POST',
    hideErrorMessage: true,
  });

/** Polls while the newest run is running. */
export function useVerifications(interval = 1000) {
  return useQuery({
    queryKey: verificationKeys.all,
    queryFn: getVerifications,
    refetchInterval: (q) => (q.state.data?.[0]?.state === 'running' ? interval : false),
  });
}

export function useStartVerification() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: startVerification,
    onSettled: () => client.invalidateQueries({ queryKey: verificationKeys.all }),
  });
}
