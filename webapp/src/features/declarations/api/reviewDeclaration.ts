// POST /api/v1/declarations/{id}/review (no body)
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { postMove, type MoveInput } from './declarationMove';
import { declarationKeys } from './keys';

/** POST /api/v1/declarations/{id}/review: one state-machine move. */
export function reviewDeclaration(input: MoveInput): Promise<CommandAnswer> {
  return postMove('review', input);
}

export function useReviewDeclaration() {
  return useCommandMutation(reviewDeclaration, [declarationKeys.all]);
}
