// POST /api/v1/declarations/{id}/withdraw (no body)
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

/** POST /api/v1/declarations/{id}/withdraw: one state-machine move. */
export function withdrawDeclaration(input: MoveInput): Promise<CommandAnswer> {
  return postMove('withdraw', input);
}

export function useWithdrawDeclaration() {
  return useCommandMutation(withdrawDeclaration, [declarationKeys.all]);
}
