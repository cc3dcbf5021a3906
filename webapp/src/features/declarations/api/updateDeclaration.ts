import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { DeclarationData } from '@/shared/declarations/model/types';
import { declarationKeys } from '@/shared/declarations/api/keys';

export interface UpdateDeclarationInput {
  id: string;
  /** The version the form was loaded at (If-Match). */
  version: number;
  data: DeclarationData;
}

/** PUT /api/v1/declarations/{id}: replace the whole form (If-Match: version). */
export function updateDeclaration(input: UpdateDeclarationInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`/api/v1/declarations/${encodeURIComponent(input.id)}`, {
    method: 'PUT',
    body: input.data,
    headers: { 'If-Match': String(input.version) },
    hideErrorMessage: true,
  });
}

export function useUpdateDeclaration() {
  return useCommandMutation(updateDeclaration, [declarationKeys.all]);
}
