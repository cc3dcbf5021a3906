// Pure validation rules of spec 5. Each returns null when valid, or an i18n key.
import dayjs, { type Dayjs } from 'dayjs';
import { shanghaiTodayIso } from './dates';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 26;
export const EXPORT_MAX_SPAN_DAYS = 365;
export const EXPORT_PICKER_WINDOW_DAYS = 180;

export interface PasswordOwner {
  name?: string | null;
  username?: string | null;
  email?: string | null;
}

/** Number of character classes (uppercase, lowercase, digit) the value uses. */
export function passwordClassCount(value: string): number {
  return [/[A-Z]/, /[a-z]/, /[0-9]/].filter((re) => re.test(value)).length;
}

function containsIdentity(value: string, owner: PasswordOwner): boolean {
  const lower = value.toLowerCase();
  const parts: string[] = [];
  for (const raw of [owner.name, owner.username, owner.email]) {
    const v = raw?.trim().toLowerCase();
    if (v) parts.push(v);
  }
  const local = owner.email?.trim().toLowerCase().split('@')[0];
  // The e-mail's local part is the recognisable piece of an address; short ones are noise.
  if (local && local.length >= 4) parts.push(local);
  return parts.some((p) => lower.includes(p));
}

/** Old or new password: required; 10-26 chars; two of three classes; no name/username/e-mail. */
export function validatePassword(value: string | null | undefined, owner: PasswordOwner = {}) {
  if (!value) return 'validation.passwordRequired';
  if (
    value.length < PASSWORD_MIN ||
    value.length > PASSWORD_MAX ||
    passwordClassCount(value) < 2 ||
    containsIdentity(value, owner)
  ) {
    return 'validation.passwordRule';
  }
  return null;
}

/** The old password is only required: its rule was checked when it was set. */
export function validateOldPassword(value: string | null | undefined) {
  return value ? null : 'validation.passwordRequired';
}

export function validateConfirmPassword(
  value: string | null | undefined,
  newPassword: string,
  owner: PasswordOwner = {},
) {
  const base = validatePassword(value, owner);
  if (base) return base;
  return value === newPassword ? null : 'validation.passwordMismatch';
}

export function validateUsername(value: string | null | undefined) {
  return value && value.trim() ? null : 'validation.usernameRequired';
}

type DateInput = Date | Dayjs | string | null | undefined;

/** Export date range: required; at most 365 days from first to last day. */
export function validateExportRange(range: readonly [DateInput, DateInput] | null | undefined) {
  if (!range || !range[0] || !range[1]) return 'validation.dateRangeRequired';
  const from = dayjs(range[0]).startOf('day');
  const to = dayjs(range[1]).startOf('day');
  if (Math.abs(to.diff(from, 'day')) > EXPORT_MAX_SPAN_DAYS) return 'validation.dateRangeTooLong';
  return null;
}

/**
 * Whether the export picker disables `date`: days after today in Shanghai always; once a first date is
 * picked, dates more than 180 days either side of it.
 */
export function isExportDateDisabled(
  date: DateInput,
  firstPick: DateInput,
  today: DateInput = shanghaiTodayIso(),
) {
  const day = dayjs(date).startOf('day');
  if (day.isAfter(dayjs(today).startOf('day'))) return true;
  if (firstPick) {
    const first = dayjs(firstPick).startOf('day');
    if (Math.abs(day.diff(first, 'day')) > EXPORT_PICKER_WINDOW_DAYS) return true;
  }
  return false;
}
