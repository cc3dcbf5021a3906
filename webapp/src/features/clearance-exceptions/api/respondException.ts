import { useCommandMutation } from '@/lib/commandMutation';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { postExceptionAction, type ActionInput } from './exceptionAction';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';

export interface RespondBody {
  /** The customer confirms the proposed changes (old -> new). */
  confirmChanges: boolean;
  /** Required when staff respond on the customer's behalf. */
  note?: string;
  /** Why each requested document without a file is missing (one per such document). */
  missing?: { document: string; reason: string }[];
}

/** POST .../{id}/respond: 3 -> 4, the documents are uploaded / the changes confirmed. */
export const respondException = (input: ActionInput<RespondBody>) =>
  postExceptionAction('respond', input);

export function useRespondException() {
  return useCommandMutation(respondException, [exceptionKeys.all, declarationKeys.all]);
}
