import type { VerificationRun } from '../api/types';

/** Percent done (0-100); a run over an empty chain is done when it ends. */
export function percentDone(run: Pick<VerificationRun, 'done' | 'total' | 'state'>): number {
  if (run.total <= 0) return run.state === 'running' ? 0 : 100;
  return Math.min(100, Math.round((run.done / run.total) * 100));
}
