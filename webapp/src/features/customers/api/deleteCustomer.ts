// DELETE /api/v1/customers/{id}: 409 with the server's message while declarations are in
// progress
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { customerPath, ifMatchSeen } from './customerPath';
import { customerKeys } from '@/shared/customers/api/keys';

export interface DeleteCustomerInput {
  id: string;
  /** The version the user saw (If-Match). */
  version?: number;
}

/** DELETE /api/v1/customers/{id}; errors are not toasted (the dialog shows them). */
export function deleteCustomer({ id, version }: DeleteCustomerInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(customerPath(id), {
    method: 'DELETE',
    headers: ifMatchSeen(version),
    hideErrorMessage: true,
  });
}

export function useDeleteCustomer() {
  return useCommandMutation(deleteCustomer, [customerKeys.all]);
}
