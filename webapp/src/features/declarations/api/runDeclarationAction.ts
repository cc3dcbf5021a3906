import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { MoveAction } from '../model/actions';
import type { CommandAnswer } from '@/lib/apiTypes';
import { declarationKeys } from './keys';
import { notePosition } from '@/lib/readYourWrites';

export interface ActionBody {
  reason?: string;
  receiptCode?: string;
  changes?: Record<string, unknown>;
}

export interface RunActionInput {
  id: string;
  action: MoveAction;
  /** The version the user acted on (If-Match); a newer one answers 409 VERSION_CONFLICT. */
  version: number;
  body?: ActionBody;
}

/** POST /api/v1/declarations/{id}/{action}: one state-machine move. */
export function runDeclarationAction(input: RunActionInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(
    `/api/v1/declarations/${encodeURIComponent(input.id)}/${input.action}`,
    {
      method: 'POST',
      body: input.body ?? {},
      headers: { 'If-Match': String(input.version) },
      hideErrorMessage: true,
    },
  );
}

export function useDeclarationAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runDeclarationAction,
    onSuccess: (answer) => {
      notePosition(answer.position);
      return client.invalidateQueries({ queryKey: declarationKeys.all });
    },
  });
}
