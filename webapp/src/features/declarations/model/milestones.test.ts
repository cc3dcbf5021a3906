import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '@/shared/declarations/model/types';
import { milestones } from './milestones';

const entry = (p: Partial<HistoryEntry>): HistoryEntry => ({
  version: 1,
  position: 1,
  at: '2026-11-29T02:00:00Z',
  actor: { id: null, name: null, role: null },
  eventType: 'DeclarationTransitioned',
  action: 'edit',
  fromStatus: null,
  toStatus: null,
  reason: null,
  changes: null,
  ...p,
});

describe('milestones', () => {
  it('reads submitted, declared, held and why, released from the history', () => {
    const m = milestones([
      entry({ action: 'create', toStatus: 0 }),
      entry({ action: 'submit', toStatus: 1, at: 't1' }),
      entry({ action: 'review', toStatus: 2, at: 't2' }),
      entry({
        action: 'reject',
        toStatus: 4,
        at: 't3',
        reason: 'invoice missing',
        receiptCode: 'Z',
      }),
      entry({ action: 'redeclare', toStatus: 2, at: 't4' }),
      entry({ action: 'complete', toStatus: 3, at: 't5', receiptCode: 'P' }),
    ]);
    expect(m.map((x) => x.kind)).toEqual(['submitted', 'held', 'declared', 'released']);
    expect(m.find((x) => x.kind === 'held')).toMatchObject({
      reason: 'invoice missing',
      receiptCode: 'Z',
    });
    expect(m.find((x) => x.kind === 'declared')?.at).toBe('t4');
  });

  it('has nothing for a draft', () => {
    expect(milestones([entry({ action: 'create', toStatus: 0 })])).toEqual([]);
  });

  it('reads a completion closed by customs (R) as held, not released', () => {
    const m = milestones([entry({ action: 'complete', toStatus: 3, receiptCode: 'R' })]);
    expect(m).toEqual([
      { kind: 'held', at: '2026-11-29T02:00:00Z', reason: null, receiptCode: 'R' },
    ]);
  });
});
