// How long an exception has waited (issue 12 "SLA"): from `statusSince` to now, in the
// largest whole units that read well ("3 d 4 h", "5 h 10 min", "12 min").
import type { ExceptionSummary } from './types';

export interface AgeParts {
  days: number;
  hours: number;
  minutes: number;
}

export function ageParts(
  since: string | null | undefined,
  now: Date = new Date(),
): AgeParts | null {
  if (!since) return null;
  const start = new Date(since).getTime();
  if (Number.isNaN(start)) return null;
  return minutesToParts((now.getTime() - start) / 60000);
}

/** Whole minutes as days, hours and minutes. */
export function minutesToParts(minutes: number): AgeParts {
  const total = Math.max(0, Math.floor(minutes));
  return {
    days: Math.floor(total / 1440),
    hours: Math.floor((total % 1440) / 60),
    minutes: total % 60,
  };
}

/**
 * The age in the two largest units: the server's `ageMinutes` when given (no client clock
 * involved), else from `since` to now.
 */
export function ageText(
  since: string | null | undefined,
  t: (key: string, values?: Record<string, unknown>) => string,
  now: Date = new Date(),
  ageMinutes?: number | null,
): string {
  const parts = typeof ageMinutes === 'number' ? minutesToParts(ageMinutes) : ageParts(since, now);
  if (!parts) return '';
  const { days, hours, minutes } = parts;
  if (days > 0) return t('age.daysHours', { days, hours });
  if (hours > 0) return t('age.hoursMinutes', { hours, minutes });
  return t('age.minutes', { minutes });
}

/** Rows of several pages, the longest waiting first (no `statusSince` last), at most `limit`. */
export function longestWaiting(
  a: readonly ExceptionSummary[],
  b: readonly ExceptionSummary[],
  limit: number,
): ExceptionSummary[] {
  const time = (e: ExceptionSummary) => (e.statusSince ? Date.parse(e.statusSince) : Infinity);
  return [...a, ...b].sort((x, y) => time(x) - time(y)).slice(0, limit);
}
