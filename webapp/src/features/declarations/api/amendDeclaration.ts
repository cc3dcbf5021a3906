// POST /api/v1/declarations/{id}/amend `{reason, changes: {field: value, ...}}`
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

export interface AmendDeclarationBody {
  /** Required by the server (400 naming the field when missing); the dialog asks for it. */
  reason?: string;
  /** Field -> new value. */
  changes?: Record<string, unknown>;
}

/** POST /api/v1/declarations/{id}/amend: one state-machine move. */
export function amendDeclaration(input: MoveInput<AmendDeclarationBody>): Promise<CommandAnswer> {
  return postMove('amend', input);
}

export function useAmendDeclaration() {
  return useCommandMutation(amendDeclaration, [declarationKeys.all]);
}
