// A shipment's milestones from its history (the status query shows them, not only the last
// code): submitted, declared to customs, held (and why), released. Pure.
import type { HistoryEntry } from '@/shared/declarations/model/types';

export type MilestoneKind = 'submitted' | 'declared' | 'held' | 'released';

export interface Milestone {
  kind: MilestoneKind;
  at: string;
  /** Why it was held (the reason given, or the customs receipt code). */
  reason?: string | null;
  receiptCode?: string | null;
}

/** The kind of milestone an entry is, if any. */
function kindOf(e: HistoryEntry): MilestoneKind | null {
  if (e.action === 'complete' || e.toStatus === 3)
    return e.receiptCode && e.receiptCode !== 'P' ? 'held' : 'released';
  if (e.action === 'reject' || e.toStatus === 4) return 'held';
  if (e.action === 'review' || e.action === 'redeclare' || e.toStatus === 2) return 'declared';
  if (e.action === 'submit' || e.toStatus === 1) return 'submitted';
  return null;
}

/**
 * The milestones in the order they happened; a milestone reached again (submitted after a
 * return) keeps its latest time, and a hold lifted by a later declaration stays listed.
 */
export function milestones(history: readonly HistoryEntry[]): Milestone[] {
  const out: Milestone[] = [];
  for (const e of history) {
    const kind = kindOf(e);
    if (!kind) continue;
    const m: Milestone = { kind, at: e.at };
    if (kind === 'held') {
      m.reason = e.reason;
      m.receiptCode = e.receiptCode ?? null;
    }
    const i = out.findIndex((x) => x.kind === kind);
    if (i >= 0) out.splice(i, 1);
    out.push(m);
  }
  return out;
}
