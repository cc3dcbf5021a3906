// POST /api/v1/customers/{id}/enable: with an optional reason
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { customerPath, ifMatchSeen } from './customerPath';
import { customerKeys } from '@/shared/customers/api/keys';

export interface EnableCustomerInput {
  id: string;
  /** The version the user saw (If-Match). */
  version?: number;
  reason?: string;
}

/** POST /api/v1/customers/{id}/enable; errors are not toasted (the dialog shows them). */
export function enableCustomer({
  id,
  version,
  reason,
}: EnableCustomerInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`${customerPath(id)}/enable`, {
    method: 'POST',
    body: reason ? { reason } : {},
    headers: ifMatchSeen(version),
    hideErrorMessage: true,
  });
}

export function useEnableCustomer() {
  return useCommandMutation(enableCustomer, [customerKeys.all]);
}
