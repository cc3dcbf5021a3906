import { useCommandMutation } from '@/lib/commandMutation';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { postExceptionAction, type ActionInput } from './exceptionAction';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';

/** The channels a notice goes on (absent: the form's). */
export interface NotifyBody {
  channels?: string[];
}

/** POST .../{id}/notify: 1 -> 2 (or a re-notice in 2 and 3): the notice goes on the chosen channels. */
export const notifyException = (input: ActionInput<NotifyBody>) =>
  postExceptionAction('notify', input);

export function useNotifyException() {
  return useCommandMutation(notifyException, [exceptionKeys.all, declarationKeys.all]);
}
