// POST /api/v1/declarations/{id}/submit (no body)
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from './declarationMove';
import { declarationKeys } from './keys';

/** POST /api/v1/declarations/{id}/submit: one state-machine move. */
export function submitDeclaration(input: MoveInput): Promise<CommandAnswer> {
  return postMove('submit', input);
}

export function useSubmitDeclaration() {
  return useCommandMutation(submitDeclaration, [declarationKeys.all]);
}
