// POST /api/v1/declarations/{id}/redeclare (no body)
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

/** POST /api/v1/declarations/{id}/redeclare: one state-machine move. */
export function redeclareDeclaration(input: MoveInput): Promise<CommandAnswer> {
  return postMove('redeclare', input);
}

export function useRedeclareDeclaration() {
  return useCommandMutation(redeclareDeclaration, [declarationKeys.all]);
}
