// Rendering of the audit log: values of a change and the "field: from -> to" lines.
import type { AuditChange } from '@/shared/platform/api/types';

/** A change value as text: lists joined, objects as JSON, null/'' as the empty marker. */
export function formatValue(value: unknown, empty: string): string {
  if (value === null || value === undefined || value === '') return empty;
  if (Array.isArray(value))
    return value.length ? value.map((v) => formatValue(v, empty)).join(', ') : empty;
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** "field: from -> to" for each change. */
export function formatChanges(changes: readonly AuditChange[] | null | undefined, empty: string) {
  return (changes ?? []).map(
    (c) => `${c.field}: ${formatValue(c.from, empty)} -> ${formatValue(c.to, empty)}`,
  );
}

type Scalar = string | number | boolean;
const isScalarList = (v: unknown): v is Scalar[] =>
  Array.isArray(v) && v.every((x) => ['string', 'number', 'boolean'].includes(typeof x));

/**
 * Each change as shown in the log: a list (roles, permission codes) as what was added
 * ("+ ...") and removed ("- ..."), since whole lists before and after hide the one code
 * that changed; anything else, and a list only reordered, as "field: from -> to". `full`
 * is always the whole "from -> to" line.
 */
export function summarizeChanges(
  changes: readonly AuditChange[] | null | undefined,
  empty: string,
): { text: string; full: string }[] {
  const full = formatChanges(changes, empty);
  return (changes ?? []).map((c, i) => {
    const from = c.from ?? [];
    const to = c.to ?? [];
    if (isScalarList(from) && isScalarList(to)) {
      const added = to.filter((x) => !from.includes(x));
      const removed = from.filter((x) => !to.includes(x));
      const parts = [
        added.length ? `+ ${added.join(', ')}` : '',
        removed.length ? `- ${removed.join(', ')}` : '',
      ].filter(Boolean);
      if (parts.length) return { text: `${c.field}: ${parts.join('; ')}`, full: full[i] };
    }
    return { text: full[i], full: full[i] };
  });
}
