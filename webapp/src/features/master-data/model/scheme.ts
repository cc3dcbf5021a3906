// The mapping scheme editor's model: the form rows and the definition sent to the server.
import type { SchemeDefinition } from '@/shared/master-data/api/types';

export interface ColumnRow {
  field: string;
  header: string;
  /** Comma separated. */
  aliases: string;
  /** 1-based, '' for none. */
  position: string;
}

export interface PairRow {
  field: string;
  a: string;
  b: string;
}

export interface SchemeForm {
  name: string;
  declarationType: string;
  headerRow: string;
  columns: ColumnRow[];
  translations: PairRow[];
  defaults: PairRow[];
}

export const emptySchemeForm = (): SchemeForm => ({
  name: '',
  declarationType: '',
  headerRow: '1',
  columns: [{ field: 'trackingNumber', header: '', aliases: '', position: '' }],
  translations: [],
  defaults: [],
});

/** A column letter (A, B, ..., AA) or number as a 1-based position; null when neither. */
export function parsePosition(v: string): number | null {
  const t = v.trim().toUpperCase();
  if (!t) return null;
  if (/^[0-9]+$/.test(t)) return Number(t);
  if (!/^[A-Z]{1,3}$/.test(t)) return null;
  let n = 0;
  for (const ch of t) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

export function toDefinition(f: SchemeForm): SchemeDefinition {
  return {
    name: f.name.trim(),
    declarationType: f.declarationType.trim() || null,
    headerRow: Number(f.headerRow) || 1,
    columns: f.columns
      .filter((c) => c.field.trim())
      .map((c) => ({
        field: c.field.trim(),
        header: c.header.trim() || null,
        aliases: c.aliases
          .split(/[,，]/)
          .map((a) => a.trim())
          .filter(Boolean),
        position: parsePosition(c.position),
      })),
    translations: f.translations
      .filter((t) => t.field.trim() && t.a.trim())
      .map((t) => ({ field: t.field.trim(), from: t.a.trim(), to: t.b.trim() })),
    defaults: f.defaults
      .filter((d) => d.field.trim() && d.b.trim())
      .map((d) => ({ field: d.field.trim(), value: d.b.trim() })),
  };
}

export function fromDefinition(d: SchemeDefinition): SchemeForm {
  return {
    name: d.name,
    declarationType: d.declarationType ?? '',
    headerRow: String(d.headerRow ?? 1),
    columns: (d.columns ?? []).map((c) => ({
      field: c.field,
      header: c.header ?? '',
      aliases: (c.aliases ?? []).join(', '),
      position: c.position ? String(c.position) : '',
    })),
    translations: (d.translations ?? []).map((t) => ({ field: t.field, a: t.from, b: t.to })),
    defaults: (d.defaults ?? []).map((x) => ({ field: x.field, a: '', b: x.value })),
  };
}

/** The form's own problems before anything is sent, as `{path: messageKey}`. */
export function schemeProblems(f: SchemeForm): Record<string, string> {
  const out: Record<string, string> = {};
  if (!f.name.trim()) out.name = 'required';
  const row = Number(f.headerRow);
  if (!Number.isInteger(row) || row < 1 || row > 1000) out.headerRow = 'headerRow';
  const used = new Set<string>();
  f.columns.forEach((c, i) => {
    if (!c.field.trim()) out[`columns[${i}].field`] = 'required';
    else if (used.has(c.field)) out[`columns[${i}].field`] = 'duplicate';
    used.add(c.field);
    if (!c.header.trim() && !c.aliases.trim() && !c.position.trim())
      out[`columns[${i}].header`] = 'headerOrPosition';
    if (c.position.trim() && parsePosition(c.position) == null)
      out[`columns[${i}].position`] = 'position';
  });
  if (f.columns.length === 0) out.columns = 'atLeastOneColumn';
  return out;
}
