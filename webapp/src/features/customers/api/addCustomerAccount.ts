import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { NewLogin } from '@/shared/customers/model/types';
import { customerKeys } from '@/shared/customers/api/keys';

export interface AddAccountInput {
  customerId: string;
  username: string;
  email?: string;
  initialPassword?: string;
}

export interface AddAccountAnswer extends CommandAnswer {
  account: NewLogin;
}

/** POST /api/v1/customers/{id}/accounts: another login of the customer. */
export function addCustomerAccount(input: AddAccountInput): Promise<AddAccountAnswer> {
  const body: Record<string, string> = { username: input.username };
  if (input.email) body.email = input.email;
  if (input.initialPassword) body.initialPassword = input.initialPassword;
  return request<AddAccountAnswer>(
    `/api/v1/customers/${encodeURIComponent(input.customerId)}/accounts`,
    { method: 'POST', body, hideErrorMessage: true },
  );
}

export function useAddCustomerAccount() {
  return useCommandMutation(addCustomerAccount, [customerKeys.all]);
}
