// POST /api/v1/customers/{id}/disable: with an optional reason
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { customerPath, ifMatchSeen } from './customerPath';
import { customerKeys } from '@/shared/customers/api/keys';

export interface DisableCustomerInput {
  id: string;
  /** The version the user saw (If-Match). */
  version?: number;
  reason?: string;
}

/** POST /api/v1/customers/{id}/disable; errors are not toasted (the dialog shows them). */
export function disableCustomer({
  id,
  version,
  reason,
}: DisableCustomerInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${customerPath(id)}/disable`, {
    method: 'POST',
    body: reason ? { reason } : {},
    headers: ifMatchSeen(version),
    hideErrorMessage: true,
  });
}

export function useDisableCustomer() {
  return useCommandMutation(disableCustomer, [customerKeys.all]);
}
