import { useCommandMutation } from '@/lib/commandMutation';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { postExceptionAction, type ActionInput } from './exceptionAction';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';

/** POST .../{id}/acknowledge: 2 -> 3: the customer has seen the notice. */
export const acknowledgeException = (input: ActionInput) =>
  postExceptionAction('acknowledge', input);

export function useAcknowledgeException() {
  return useCommandMutation(acknowledgeException, [exceptionKeys.all, declarationKeys.all]);
}
