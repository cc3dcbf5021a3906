// The clearance-exception state machine of DOMAIN.md as the screens need it: the badge
// colour of each status and the actions a role may take in a status. The server enforces
// the same rules (403 for a role that may not act, 409 ILLEGAL_TRANSITION otherwise); these
// only decide which buttons to show.
import type { Role } from '@/lib/roles';
import { isAdmin, isCustomer, isStaff } from '@/lib/roles';
import type { ExceptionStatus } from './types';

export const STATUS_COLORS: Record<ExceptionStatus, string> = {
  1: 'gray',
  2: 'blue',
  3: 'orange',
  4: 'grape',
  6: 'teal',
  7: 'dark',
};

/** The status filter's values, "all" first. */
export const STATUS_FILTER_VALUES = ['-1', '1', '2', '3', '4', '6', '7'] as const;

/** Open statuses: the exception still holds its declaration in status 4. */
export const OPEN_STATUSES: readonly number[] = [1, 2, 3, 4];

/** Declarations in these statuses may take an exception (DOMAIN.md 1 -> 4, 2 -> 4). */
export const ELIGIBLE_DECLARATION_STATUSES: readonly number[] = [1, 2];

export const isOpen = (status: number): boolean => OPEN_STATUSES.includes(status);

export const EXCEPTION_ACTIONS = [
  'notify',
  'acknowledge',
  'respond',
  'approve',
  'reject',
  'void',
] as const;
export type ExceptionAction = (typeof EXCEPTION_ACTIONS)[number];

/** Actions that need a reason (DOMAIN.md: reject 4 -> 3, void). */
export const REASON_ACTIONS: readonly ExceptionAction[] = ['reject', 'void'];

/**
 * What `role` may do to an exception in `status` (the command side's table; the detail
 * answer's `actions` is preferred when present):
 * 1 -> 2 notify (O, A); 2 -> 3 acknowledge (C); 3 -> 4 respond (C, or an operator on the
 * customer's behalf with a note); 4 -> 6 approve and 4 -> 3 reject (O, A);
 * 1, 2, 3 -> 7 void (O, A); 4 -> 7 void (A only).
 */
export function allowedExceptionActions(
  role: Role | null | undefined,
  status: number,
): ExceptionAction[] {
  const actions: ExceptionAction[] = [];
  if (isCustomer(role)) {
    if (status === 2) actions.push('acknowledge');
    if (status === 3) actions.push('respond');
    return actions;
  }
  if (!isStaff(role)) return actions;
  if (status === 1) actions.push('notify');
  if (status === 3 && role === 'OPERATOR') actions.push('respond');
  // From 2 and 3 the notice again (resend, or another channel).
  if (status === 2 || status === 3) actions.push('notify');
  if (status === 4) actions.push('approve', 'reject');
  if (status === 1 || status === 2 || status === 3 || (status === 4 && isAdmin(role)))
    actions.push('void');
  return actions;
}

/** Who may upload documents in `status`: the customer while asked, staff while open. */
export function canUpload(role: Role | null | undefined, status: number): boolean {
  if (isCustomer(role)) return status === 2 || status === 3;
  return isStaff(role) && isOpen(status);
}
