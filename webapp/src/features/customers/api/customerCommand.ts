import { useMutation, useQueryClient } from '@tanstack/react-query';
import { notePosition } from '@/lib/readYourWrites';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { customerKeys } from './keys';

export type CustomerCommand = 'disable' | 'enable' | 'delete';

export interface CustomerCommandInput {
  id: string;
  command: CustomerCommand;
  /** The version the user saw (If-Match). */
  version?: number;
  reason?: string;
}

/**
 * POST /api/v1/customers/{id}/disable | /enable `{reason?}`, DELETE /api/v1/customers/{id}
 * (409 with the server's message while declarations are in progress).
 */
export function runCustomerCommand(input: CustomerCommandInput): Promise<CommandAnswer> {
  const path = `/api/v1/customers/${encodeURIComponent(input.id)}`;
  const headers: Record<string, string> =
    input.version === undefined ? {} : { 'If-Match': String(input.version) };
  if (input.command === 'delete') {
    return request<CommandAnswer>(path, { method: 'DELETE', headers, hideErrorMessage: true });
  }
  const body = input.reason ? { reason: input.reason } : {};
  return request<CommandAnswer>(`${path}/${input.command}`, {
    method: 'POST',
    body,
    headers,
    hideErrorMessage: true,
  });
}

export function useCustomerCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runCustomerCommand,
    onSuccess: (answer) => {
      notePosition(answer?.position);
      return client.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
}
