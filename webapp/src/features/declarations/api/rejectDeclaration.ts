// POST /api/v1/declarations/{id}/reject `{reason, receiptCode?: "E"|"Z"|"Y"}`
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

export interface RejectDeclarationBody {
  /** Required by the server (400 naming the field when missing); the dialog asks for it. */
  reason?: string;
  /** "E", "Z" or "Y". */
  receiptCode?: string;
}

/** POST /api/v1/declarations/{id}/reject: one state-machine move. */
export function rejectDeclaration(input: MoveInput<RejectDeclarationBody>): Promise<CommandAnswer> {
  return postMove('reject', input);
}

export function useRejectDeclaration() {
  return useCommandMutation(rejectDeclaration, [declarationKeys.all]);
}
