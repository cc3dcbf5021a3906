import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { NewLogin } from '@/shared/customers/model/types';
import { customerKeys } from '@/shared/customers/api/keys';

export interface CreateCustomerAnswer extends CommandAnswer {
  account?: NewLogin | null;
}

export interface CreateCustomerInput {
  body: Record<string, unknown>;
  /** One per dialog, so a double click registers one customer. */
  idempotencyKey: string;
}

/** POST /api/v1/customers: a new archive entry, with its first login unless told not to. */
export function createCustomer(input: CreateCustomerInput): Promise<CreateCustomerAnswer> {
  return request<CreateCustomerAnswer>('/api/v1/customers', {
    method: 'POST',
    body: input.body,
    headers: { 'Idempotency-Key': input.idempotencyKey },
    hideErrorMessage: true,
  });
}

export function useCreateCustomer() {
  return useCommandMutation(createCustomer, [customerKeys.all]);
}
