// What the state-machine endpoints (POST /api/v1/declarations/{id}/{action}) share: the
// version the user acted on (If-Match; a newer one answers 409 VERSION_CONFLICT) and how
// the request is sent. Each endpoint has its own file with its body type and hook.
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { MoveAction } from '@/shared/declarations/model/actions';

export interface MoveInput<Body = never> {
  id: string;
  /** The version the user acted on (If-Match). */
  version: number;
  body?: Body;
}

/** Errors are not toasted: the dialog, the reload prompt or the form shows them. */
export function postMove<Body>(action: MoveAction, input: MoveInput<Body>): Promise<CommandAnswer> {
  return request<CommandAnswer>(`/api/v1/declarations/${encodeURIComponent(input.id)}/${action}`, {
    method: 'POST',
    body: input.body ?? {},
    headers: { 'If-Match': String(input.version) },
    hideErrorMessage: true,
  });
}
