import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface BindInput {
  upsId: string;
  accountNo: string;
}

/**
 * POST /api/v1/custom-profile: binds the Easy-clear ID staff registered for the customer
 * (docs/identity.md). A mismatch is a 400 on `upsId`; another ID once bound is 409.
 */
export function bindEasyClear(input: BindInput): Promise<unknown> {
  return request('/api/v1/custom-profile', {
    method: 'POST',
    body: { isFromUps: false, upsId: input.upsId.trim(), accountNo: input.accountNo.trim() },
    hideErrorMessage: true,
  });
}

export function useBindEasyClear() {
  return useMutation({ mutationFn: bindEasyClear });
}
