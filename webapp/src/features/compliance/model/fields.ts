// A JSON value shown as fields: a key/value list with nested objects indented, no raw JSON.
import { fromShanghaiInput, toShanghaiInput } from '@/lib/dates';

export interface FieldRow {
  /** The key (an array item's index as `[0]`). */
  label: string;
  /** The leaf's text; null for an object or array heading its children. */
  value: string | null;
  /** Nesting level, 0 at the top. */
  depth: number;
  /** The dotted path, unique within one value (a React key). */
  path: string;
}

/** A leaf as text; empty objects and arrays as `{}` / `[]`, null as `—`. */
export function leafText(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '[]' : `[${value.length}]`;
  if (typeof value === 'object') return Object.keys(value).length === 0 ? '{}' : '{…}';
  return String(value);
}

function isBranch(value: unknown): value is Record<string, unknown> | unknown[] {
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

/** A leaf with nothing in it: null, blank, `[]` or `{}`. */
export function isEmptyRow(row: FieldRow): boolean {
  return row.value !== null && ['—', '', '[]', '{}'].includes(row.value.trim());
}

/** The rows of `value`, depth first, keys in their stored order. */
export function fieldRows(value: unknown, depth = 0, prefix = ''): FieldRow[] {
  if (!isBranch(value)) {
    return depth === 0 && value !== undefined
      ? [{ label: '', value: leafText(value), depth: 0, path: '' }]
      : [];
  }
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [`[${i}]`, v])
    : Object.entries(value);
  const rows: FieldRow[] = [];
  for (const [key, child] of entries) {
    const path = prefix ? (key.startsWith('[') ? `${prefix}${key}` : `${prefix}.${key}`) : key;
    if (isBranch(child)) {
      rows.push({ label: key, value: null, depth, path });
      rows.push(...fieldRows(child, depth + 1, path));
    } else {
      rows.push({ label: key, value: leafText(child), depth, path });
    }
  }
  return rows;
}

/** An ISO time as a `datetime-local` value on the Shanghai clock, with milliseconds. */
export function toLocalInput(iso: string): string {
  return toShanghaiInput(iso);
}

/**
 * A `datetime-local` value, read on the Shanghai clock (UTC+8, the time every screen
 * shows, whatever the browser's zone), as an ISO instant; '' if empty or not a time.
 */
export function fromLocalInput(local: string): string {
  return fromShanghaiInput(local);
}

/** The parameters worth sending: trimmed, empty ones left out. */
export function compactParams(params: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    const t = v.trim();
    if (t) out[k] = t;
  }
  return out;
}

/**
 * The last microsecond of the millisecond `iso` names (`…123Z` -> `…123999Z`): the pickers
 * show milliseconds while the log records microseconds, so "as of 12:00:00.123" includes an
 * event recorded at 12:00:00.123456.
 */
export function endOfMillisecond(iso: string): string {
  return /\.\d{3}Z$/.test(iso) ? iso.replace(/Z$/, '999Z') : iso;
}
