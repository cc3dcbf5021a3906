// POST /api/v1/declarations/{id}/delete `{reason?}`
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

export interface DeleteDeclarationBody {
  reason?: string;
}

/** POST /api/v1/declarations/{id}/delete: one state-machine move. */
export function deleteDeclaration(input: MoveInput<DeleteDeclarationBody>): Promise<CommandAnswer> {
  return postMove('delete', input);
}

export function useDeleteDeclaration() {
  return useCommandMutation(deleteDeclaration, [declarationKeys.all]);
}
