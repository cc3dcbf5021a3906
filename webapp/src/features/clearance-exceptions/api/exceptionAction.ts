// What the state-machine endpoints (POST /api/v1/clearance-exceptions/{id}/{action}) share:
// the version the user acted on (If-Match) and how the request is sent. Each action has its
// own file with its body type and hook.
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch } from '@/lib/commandMutation';
import type { ExceptionAction } from '@/shared/clearance-exceptions/model/statuses';
import { exceptionPath } from '@/shared/clearance-exceptions/api/keys';

export interface ActionInput<Body = Record<string, never>> {
  id: string;
  version: number;
  body?: Body;
}

/** Errors are not toasted: the dialog or the page shows them. */
export function postExceptionAction<Body>(
  action: ExceptionAction,
  input: ActionInput<Body>,
): Promise<CommandAnswer> {
  return request<CommandAnswer>(exceptionPath(input.id, action), {
    method: 'POST',
    body: input.body ?? {},
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}
