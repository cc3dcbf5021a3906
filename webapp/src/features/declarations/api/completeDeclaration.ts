// POST /api/v1/declarations/{id}/complete `{receiptCode?: "P"|"R"}`
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

export interface CompleteDeclarationBody {
  /** "P" or "R". */
  receiptCode?: string;
}

/** POST /api/v1/declarations/{id}/complete: one state-machine move. */
export function completeDeclaration(
  input: MoveInput<CompleteDeclarationBody>,
): Promise<CommandAnswer> {
  return postMove('complete', input);
}

export function useCompleteDeclaration() {
  return useCommandMutation(completeDeclaration, [declarationKeys.all]);
}
