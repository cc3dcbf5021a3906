// How long a message may go without a receipt before the staff home counts it as held by
// customs (`silentHours` of GET /api/v1/customs/holds, which takes 1-720 hours). Staff pick
// one of a few thresholds; the choice stays in the UI state for the rest of the session.
import { create } from 'zustand';

/** The thresholds offered, in hours: 4 h, 24 h, 72 h, 7 days. */
export const HOLD_THRESHOLDS = [4, 24, 72, 168] as const;
export type HoldThreshold = (typeof HOLD_THRESHOLDS)[number];
export const DEFAULT_HOLD_THRESHOLD: HoldThreshold = 24;

export function isHoldThreshold(v: number): v is HoldThreshold {
  return (HOLD_THRESHOLDS as readonly number[]).includes(v);
}

interface HoldsThresholdState {
  silentHours: HoldThreshold;
  setSilentHours: (hours: number) => void;
}

export const useHoldsThreshold = create<HoldsThresholdState>()((set) => ({
  silentHours: DEFAULT_HOLD_THRESHOLD,
  setSilentHours: (hours) => {
    if (isHoldThreshold(hours)) set({ silentHours: hours });
  },
}));
