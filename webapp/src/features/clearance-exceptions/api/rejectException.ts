import { useCommandMutation } from '@/lib/commandMutation';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { postExceptionAction, type ActionInput } from './exceptionAction';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';

export interface RejectBody {
  reason: string;
}

/** POST .../{id}/reject: 4 -> 3: insufficient, back to the customer with the reason. */
export const rejectException = (input: ActionInput<RejectBody>) =>
  postExceptionAction('reject', input);

export function useRejectException() {
  return useCommandMutation(rejectException, [exceptionKeys.all, declarationKeys.all]);
}
