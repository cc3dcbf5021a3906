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

/** How every time on screen is labelled: the business zone's fixed offset (no DST). */
export const BUSINESS_ZONE_LABEL = 'UTC+8';

const shanghaiClock = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** The Shanghai wall clock of an instant: `2026-11-22`, `09:30:05`, or null if unreadable. */
function shanghaiClockParts(value: string): { day: string; time: string } | null {
  // Without an offset the text already is the Shanghai clock (the server's local time).
  const bare = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2})?(?:\.\d+)?)?$/.exec(value.trim());
  if (bare) return { day: bare[1], time: `${bare[2] ?? '00:00'}${bare[3] ?? ':00'}` };
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return null;
  const p = Object.fromEntries(
    shanghaiClock.formatToParts(at).map((part) => [part.type, part.value] as const),
  );
  return { day: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
}

/**
 * `2026-11-22 09:30`: the instant on the Shanghai clock, whatever the browser's zone (the
 * server sends times with their offset). `withZone` adds ` (UTC+8)`.
 */
export function formatDateTime(
  value: string | null | undefined,
  { withZone = false }: { withZone?: boolean } = {},
): string {
  if (!value) return '';
  const parts = shanghaiClockParts(value);
  if (!parts) return String(value);
  const text = `${parts.day} ${parts.time.slice(0, 5)}`;
  return withZone ? `${text} (${BUSINESS_ZONE_LABEL})` : text;
}

/** `2026-11-22` from YYYYMMDD, YYYY-MM-DD or an ISO time (its Shanghai day). */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  if (/^\d{8}$/.test(value)) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`;
  return shanghaiClockParts(value)?.day ?? String(value);
}

/** "YYYY-MM-DD HH:mm:ss" on the Shanghai clock from an ISO time with offset. */
export function formatTime(value: string | null | undefined): string {
  if (!value) return '';
  const parts = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/.test(value)
    ? shanghaiClockParts(value)
    : null;
  return parts ? `${parts.day} ${parts.time}` : value;
}

/**
 * An instant as the value of a `datetime-local` field showing the Shanghai clock
 * (`2026-11-22T09:30:05.123`), whatever the browser's zone; '' if unreadable.
 */
export function toShanghaiInput(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const parts = shanghaiClockParts(iso);
  if (!parts) return '';
  return `${parts.day}T${parts.time}.${String(at.getUTCMilliseconds()).padStart(3, '0')}`;
}

/**
 * A `datetime-local` value read on the Shanghai clock (UTC+8) as an ISO instant; '' if
 * empty or not a time. Browsers drop a fraction's trailing zeros (`17.210` reads `17.21`).
 */
export function fromShanghaiInput(local: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/.exec(local.trim());
  if (!m) return '';
  const [, y, mo, d, h, mi, sec = '0', frac = ''] = m;
  const ms = Number(frac.slice(0, 3).padEnd(3, '0'));
  // Shanghai keeps UTC+8 all year: the wall clock minus eight hours is UTC.
  const utc = Date.UTC(+y, +mo - 1, +d, +h - 8, +mi, +sec, ms);
  const check = new Date(Date.UTC(+y, +mo - 1, +d));
  if (check.getUTCMonth() !== +mo - 1 || check.getUTCDate() !== +d) return '';
  return new Date(utc).toISOString();
}
