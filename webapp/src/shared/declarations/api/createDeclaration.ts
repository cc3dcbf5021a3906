import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { DeclarationData } from '@/shared/declarations/model/types';
import { declarationKeys } from './keys';

export interface CreateDeclarationInput {
  declarationType: string;
  /** Staff name the owning customer; ignored for customers. */
  customerId?: string | null;
  data: DeclarationData;
  /** Idempotency-Key: one per form, so a double click creates one draft. */
  idempotencyKey: string;
}

/** POST /api/v1/declarations: a new draft (status 0). */
export function createDeclaration(input: CreateDeclarationInput): Promise<CommandAnswer> {
  const body: Record<string, unknown> = { ...input.data, declarationType: input.declarationType };
  if (input.customerId) body.customerId = input.customerId;
  return request<CommandAnswer>('/api/v1/declarations', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': input.idempotencyKey },
    hideErrorMessage: true,
  });
}

export function useCreateDeclaration() {
  return useCommandMutation(createDeclaration, [declarationKeys.all]);
}
