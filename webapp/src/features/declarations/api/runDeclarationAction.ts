// The list rows and the detail page offer the moves the role may make and pick one at run
// time: this runs the endpoint the chosen action names (one file per endpoint: this only
// chooses between them) and invalidates the declarations' root key like each of them.
import { useCommandMutation } from '@/lib/commandMutation';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { MoveAction } from '@/shared/declarations/model/actions';
import { amendDeclaration } from './amendDeclaration';
import { completeDeclaration } from './completeDeclaration';
import { deleteDeclaration } from './deleteDeclaration';
import { redeclareDeclaration } from './redeclareDeclaration';
import { rejectDeclaration } from './rejectDeclaration';
import { returnDeclaration } from './returnDeclaration';
import { reviewDeclaration } from './reviewDeclaration';
import { sendBackDeclaration } from './sendBackDeclaration';
import { submitDeclaration } from '@/shared/declarations/api/submitDeclaration';
import { withdrawDeclaration } from './withdrawDeclaration';
import { declarationKeys } from '@/shared/declarations/api/keys';

/** What the action dialog collects; each endpoint takes the fields it knows. */
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

/** The endpoint of `action`; the moves without a payload send none. */
export function runDeclarationAction({
  action,
  body,
  ...target
}: RunActionInput): Promise<CommandAnswer> {
  switch (action) {
    case 'submit':
      return submitDeclaration(target);
    case 'withdraw':
      return withdrawDeclaration(target);
    case 'review':
      return reviewDeclaration(target);
    case 'redeclare':
      return redeclareDeclaration(target);
    case 'return':
      return returnDeclaration({ ...target, body });
    case 'complete':
      return completeDeclaration({ ...target, body });
    case 'reject':
      return rejectDeclaration({ ...target, body });
    case 'send-back':
      return sendBackDeclaration({ ...target, body });
    case 'amend':
      return amendDeclaration({ ...target, body });
    case 'delete':
      return deleteDeclaration({ ...target, body });
  }
}

export function useDeclarationAction() {
  return useCommandMutation(runDeclarationAction, [declarationKeys.all]);
}
