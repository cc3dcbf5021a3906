// POST /api/v1/declarations/{id}/send-back `{reason}`
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

export interface SendBackDeclarationBody {
  /** Required by the server (400 naming the field when missing); the dialog asks for it. */
  reason?: string;
}

/** POST /api/v1/declarations/{id}/send-back: one state-machine move. */
export function sendBackDeclaration(
  input: MoveInput<SendBackDeclarationBody>,
): Promise<CommandAnswer> {
  return postMove('send-back', input);
}

export function useSendBackDeclaration() {
  return useCommandMutation(sendBackDeclaration, [declarationKeys.all]);
}
