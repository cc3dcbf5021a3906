// POST /api/v1/declarations/{id}/return `{reason}`
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

export interface ReturnDeclarationBody {
  /** Required by the server (400 naming the field when missing); the dialog asks for it. */
  reason?: string;
}

/** POST /api/v1/declarations/{id}/return: one state-machine move. */
export function returnDeclaration(input: MoveInput<ReturnDeclarationBody>): Promise<CommandAnswer> {
  return postMove('return', input);
}

export function useReturnDeclaration() {
  return useCommandMutation(returnDeclaration, [declarationKeys.all]);
}
