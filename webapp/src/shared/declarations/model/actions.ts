// Which declaration actions a role may take from a status: the server's state machine
// (command/src/declaration/rules.rs, DOMAIN.md) as data, so buttons show only when the
// server would accept them. C customer (own declarations only), O operator, A admin or
// super admin.
import type { Role } from '@/lib/roles';

export type MoveAction =
  | 'submit'
  | 'withdraw'
  | 'review'
  | 'return'
  | 'complete'
  | 'reject'
  | 'redeclare'
  | 'send-back'
  | 'amend'
  | 'delete';

export type DeclarationAction = MoveAction | 'edit';

type Who = 'C' | 'O' | 'A';

export function who(role: Role | null | undefined): Who | null {
  switch (role) {
    case 'CUSTOMER':
      return 'C';
    case 'OPERATOR':
      return 'O';
    case 'ADMIN':
    case 'SUPER_ADMIN':
      return 'A';
    default:
      return null;
  }
}

/** (action, from, to, who). */
export const MOVES: readonly (readonly [MoveAction, number, number, readonly Who[]])[] = [
  ['submit', 0, 1, ['C', 'O']],
  ['submit', 11, 1, ['C', 'O']],
  ['delete', 0, 5, ['C', 'O', 'A']],
  ['delete', 11, 5, ['C', 'A']],
  ['withdraw', 1, 0, ['C']],
  ['review', 1, 2, ['O', 'A']],
  ['return', 1, 11, ['O', 'A']],
  ['complete', 2, 3, ['O', 'A']],
  ['reject', 2, 10, ['O', 'A']],
  ['redeclare', 10, 2, ['O', 'A']],
  ['send-back', 10, 11, ['O', 'A']],
  ['amend', 3, 2, ['A']],
];

/** Display order of the buttons. */
export const ACTION_ORDER: readonly DeclarationAction[] = [
  'edit',
  'submit',
  'withdraw',
  'review',
  'return',
  'complete',
  'reject',
  'redeclare',
  'send-back',
  'amend',
  'delete',
];

/** Edits: 0 and 11 by the owner or staff, 10 by staff only. */
export function mayEdit(role: Role | null | undefined, status: number): boolean {
  const w = who(role);
  if (!w) return false;
  if (status === 0 || status === 11) return true;
  return status === 10 && w !== 'C';
}

/** The status a move from `status` leads to, or null when `role` may not make it. */
export function moveTarget(
  role: Role | null | undefined,
  action: MoveAction,
  status: number,
): number | null {
  const w = who(role);
  if (!w) return null;
  const row = MOVES.find(([a, from, , ws]) => a === action && from === status && ws.includes(w));
  return row ? row[2] : null;
}

/** Every action `role` may take on a declaration in `status`, in display order. */
export function allowedActions(role: Role | null | undefined, status: number): DeclarationAction[] {
  return ACTION_ORDER.filter((a) =>
    a === 'edit' ? mayEdit(role, status) : moveTarget(role, a, status) !== null,
  );
}

/** Actions that ask for a reason (required) or allow one (delete). */
export const REASON_REQUIRED: readonly MoveAction[] = ['return', 'reject', 'send-back', 'amend'];
export const REASON_OPTIONAL: readonly MoveAction[] = ['delete'];
/** Receipt codes a move may record (docs/fields.md "declarationStatus"). */
export const RECEIPT_CODES: Partial<Record<MoveAction, readonly string[]>> = {
  complete: ['P', 'R'],
  reject: ['E', 'Z', 'Y'],
};
/** Actions that open a dialog before running. */
export function needsDialog(action: MoveAction): boolean {
  return (
    REASON_REQUIRED.includes(action) || REASON_OPTIONAL.includes(action) || action in RECEIPT_CODES
  );
}
/** Actions drawn as dangerous (red). */
export const DANGEROUS: readonly DeclarationAction[] = ['delete', 'reject', 'return', 'send-back'];

/** Actions of the activity feed's filter (`GET /api/v1/declarations/activity`). */
export const ACTIVITY_ACTIONS = [
  'create',
  'edit',
  'submit',
  'withdraw',
  'review',
  'return',
  'complete',
  'reject',
  'redeclare',
  'send-back',
  'amend',
  'delete',
] as const;
