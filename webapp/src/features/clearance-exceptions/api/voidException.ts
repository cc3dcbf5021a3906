import { useCommandMutation } from '@/lib/commandMutation';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { postExceptionAction, type ActionInput } from './exceptionAction';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';

export interface VoidBody {
  reason: string;
}

/** POST .../{id}/void: 1, 2, 3 -> 7 (4 -> 7 admins only): the declaration goes to 11. */
export const voidException = (input: ActionInput<VoidBody>) => postExceptionAction('void', input);

export function useVoidException() {
  return useCommandMutation(voidException, [exceptionKeys.all, declarationKeys.all]);
}
