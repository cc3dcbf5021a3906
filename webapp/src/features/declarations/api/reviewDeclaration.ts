// POST /api/v1/declarations/{id}/review (no body)
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from '@/shared/declarations/api/declarationMove';
import { declarationKeys } from '@/shared/declarations/api/keys';

/** POST /api/v1/declarations/{id}/review: one state-machine move. */
export function reviewDeclaration(input: MoveInput): Promise<CommandAnswer> {
  return postMove('review', input);
}

export function useReviewDeclaration() {
  return useCommandMutation(reviewDeclaration, [declarationKeys.all]);
}
