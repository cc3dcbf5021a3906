import { useCommandMutation } from '@/lib/commandMutation';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { postExceptionAction, type ActionInput } from './exceptionAction';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';

/** POST .../{id}/approve: 4 -> 6: review completed; the declaration returns to its earlier status. */
export const approveException = (input: ActionInput) => postExceptionAction('approve', input);

export function useApproveException() {
  return useCommandMutation(approveException, [exceptionKeys.all, declarationKeys.all]);
}
