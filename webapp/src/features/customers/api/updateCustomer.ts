import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { customerKeys } from '@/shared/customers/api/keys';

export interface UpdateCustomerInput {
  id: string;
  /** The version the user edited (If-Match); a newer one answers 409 VERSION_CONFLICT. */
  version: number;
  body: Record<string, unknown>;
}

/** PUT /api/v1/customers/{id}: the profile fields (the username never changes). */
export function updateCustomer(input: UpdateCustomerInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`/api/v1/customers/${encodeURIComponent(input.id)}`, {
    method: 'PUT',
    body: input.body,
    headers: { 'If-Match': String(input.version) },
    hideErrorMessage: true,
  });
}

export function useUpdateCustomer() {
  return useCommandMutation(updateCustomer, [customerKeys.all]);
}
