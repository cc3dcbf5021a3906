import { describe, expect, it } from 'vitest';
import {
  allowedActions,
  mayEdit,
  moveTarget,
  needsDialog,
} from '@/shared/declarations/model/actions';

describe('row actions per role and status (the server state machine)', () => {
  it('customer: edit/submit/delete drafts and returned ones, withdraw unprocessed', () => {
    expect(allowedActions('CUSTOMER', 0)).toEqual(['edit', 'submit', 'delete']);
    expect(allowedActions('CUSTOMER', 11)).toEqual(['edit', 'submit', 'delete']);
    expect(allowedActions('CUSTOMER', 1)).toEqual(['withdraw']);
    for (const s of [2, 3, 4, 5, 10]) expect(allowedActions('CUSTOMER', s)).toEqual([]);
  });

  it('operator: reviews, completes, redeclares; never deletes from 11, never amends', () => {
    expect(allowedActions('OPERATOR', 0)).toEqual(['edit', 'submit', 'delete']);
    expect(allowedActions('OPERATOR', 1)).toEqual(['review', 'return']);
    expect(allowedActions('OPERATOR', 2)).toEqual(['complete', 'reject']);
    expect(allowedActions('OPERATOR', 10)).toEqual(['edit', 'redeclare', 'send-back']);
    expect(allowedActions('OPERATOR', 11)).toEqual(['edit', 'submit']);
    expect(allowedActions('OPERATOR', 3)).toEqual([]);
  });

  it('admin and super admin: no submit or withdraw, delete from 11, amend completed', () => {
    for (const role of ['ADMIN', 'SUPER_ADMIN'] as const) {
      expect(allowedActions(role, 0)).toEqual(['edit', 'delete']);
      expect(allowedActions(role, 1)).toEqual(['review', 'return']);
      expect(allowedActions(role, 2)).toEqual(['complete', 'reject']);
      expect(allowedActions(role, 10)).toEqual(['edit', 'redeclare', 'send-back']);
      expect(allowedActions(role, 11)).toEqual(['edit', 'delete']);
      expect(allowedActions(role, 3)).toEqual(['amend']);
      expect(allowedActions(role, 5)).toEqual([]);
    }
  });

  it('nobody acts without a role', () => {
    expect(allowedActions(null, 0)).toEqual([]);
    expect(mayEdit(undefined, 0)).toBe(false);
  });

  it('knows where a move leads', () => {
    expect(moveTarget('OPERATOR', 'reject', 2)).toBe(10);
    expect(moveTarget('ADMIN', 'amend', 3)).toBe(2);
    expect(moveTarget('OPERATOR', 'delete', 11)).toBeNull();
    expect(mayEdit('CUSTOMER', 10)).toBe(false);
    expect(mayEdit('OPERATOR', 10)).toBe(true);
  });

  it('asks for a payload for reasons and receipt codes', () => {
    expect(
      ['return', 'reject', 'send-back', 'amend', 'delete', 'complete'].every((a) =>
        needsDialog(a as never),
      ),
    ).toBe(true);
    expect(['submit', 'withdraw', 'review', 'redeclare'].some((a) => needsDialog(a as never))).toBe(
      false,
    );
  });
});
