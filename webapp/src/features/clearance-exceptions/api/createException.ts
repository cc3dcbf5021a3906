import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { declarationKeys } from '@/shared/declarations/api/keys';
import type { ExceptionFormData } from '@/shared/clearance-exceptions/model/types';
import { exceptionKeys, exceptionPath } from '@/shared/clearance-exceptions/api/keys';

export interface CreateExceptionInput {
  declarationId: string;
  form: ExceptionFormData;
  /** One per form, so a double click raises one exception. */
  idempotencyKey: string;
}

/**
 * POST /api/v1/clearance-exceptions: raises an exception on a declaration (which moves to
 * status 4). Errors are not toasted: the form shows them on its fields.
 */
export function createException(input: CreateExceptionInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(exceptionPath(), {
    method: 'POST',
    body: { declarationId: input.declarationId, ...input.form },
    headers: { 'Idempotency-Key': input.idempotencyKey },
    hideErrorMessage: true,
  });
}

export function useCreateException() {
  return useCommandMutation(createException, [exceptionKeys.all, declarationKeys.all]);
}
