// Dates as the API reads them and as the screens show them.
//
// The business runs on Asia/Shanghai time: a day filter such as `toDate=20261125` means that
// calendar day in Shanghai, and the server counts "today" there. A browser elsewhere (or a
// machine whose clock is UTC) would otherwise send its own day, which is yesterday in
// Shanghai from 16:00 UTC on, so every "today" the web app sends comes from `shanghaiYmd`.
// A day the user picks in a date picker is a calendar day, not an instant, and is sent as
// picked (`isoToYmd`).
import dayjs from 'dayjs';

/** The time zone whose calendar every YYYYMMDD the web app sends is in. */
export const BUSINESS_TIME_ZONE = 'Asia/Shanghai';

// en-CA formats as YYYY-MM-DD; formatToParts keeps this independent of that detail.
const shanghaiDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

function shanghaiParts(at: Date): { y: number; m: number; d: number } {
  const parts = Object.fromEntries(
    shanghaiDay.formatToParts(at).map((p) => [p.type, p.value] as const),
  );
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day) };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * The Shanghai calendar day `daysBefore` days before the one containing `at`, as YYYYMMDD.
 * `shanghaiYmd()` is today in Shanghai.
 */
export function shanghaiYmd(at: Date = new Date(), daysBefore = 0): string {
  const { y, m, d } = shanghaiParts(at);
  // Calendar arithmetic on a UTC date, so no local offset or DST change can move the day.
  const day = new Date(Date.UTC(y, m - 1, d - daysBefore));
  return `${pad(day.getUTCFullYear(), 4)}${pad(day.getUTCMonth() + 1)}${pad(day.getUTCDate())}`;
}

/** Today in Shanghai as a date picker's YYYY-MM-DD (the latest day a picker offers). */
export function shanghaiTodayIso(at: Date = new Date()): string {
  return ymdToIso(shanghaiYmd(at)) ?? '';
}

/** A YYYYMMDD string from a picked calendar day (a Date at local midnight or YYYY-MM-DD), or ''. */
export function toYmd(value: Date | string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYYMMDD') : '';
}

/** A local Date from YYYYMMDD, or null when absent or unreadable. */
export function fromYmd(value: string | null | undefined): Date | null {
  if (!value || !/^\d{8}$/.test(value)) return null;
  const d = dayjs(`${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6, 8)}`);
  return d.isValid() && d.format('YYYYMMDD') === value ? d.toDate() : null;
}

/** '20261101' -> '2026-11-01' (the date pickers' value), or null. */
export function ymdToIso(value: string | null | undefined): string | null {
  const d = fromYmd(value);
  return d ? dayjs(d).format('YYYY-MM-DD') : null;
}

/** '2026-11-01' (or a picked Date) -> '20261101', or ''. */
export function isoToYmd(value: string | Date | null | undefined): string {
  return toYmd(value ?? null);
}

/** `2026-11-22 09:30` (times arrive in Asia/Shanghai with their offset). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : String(value);
}

/** `2026-11-22` from YYYYMMDD, YYYY-MM-DD or an ISO time. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  if (/^\d{8}$/.test(value)) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`;
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD') : String(value);
}

/** "YYYY-MM-DD HH:mm:ss" from an ISO time with offset (the server's local time kept). */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})/.exec(value);
  return m ? `${m[1]} ${m[2]}` : value;
}
