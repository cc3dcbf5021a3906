// The review of a proposal: the proposed fields as one list (header fields, then goods lines),
// the reviewer's decisions, and the form sent to /accept with those decisions applied.
import type { AiDraft, FieldReview, Proposal } from './types';

export const GOODS_KEY = 'declarationGoodsInfo';

export interface ProposedField {
  /** Path as the server names it: `grossWeight`, `declarationGoodsInfo[0].goodsName`. */
  path: string;
  /** Header field name or goods line field name. */
  name: string;
  /** Goods line index, when the field belongs to a line. */
  line?: number;
  proposal: Proposal;
}

/** Every proposed field: header fields in the proposal's order, then each goods line's. */
export function proposedFields(draft: Pick<AiDraft, 'fields' | 'goods'>): ProposedField[] {
  const out: ProposedField[] = Object.entries(draft.fields).map(([name, proposal]) => ({
    path: name,
    name,
    proposal,
  }));
  draft.goods.forEach((line, i) => {
    for (const [name, proposal] of Object.entries(line)) {
      out.push({ path: `${GOODS_KEY}[${i}].${name}`, name, line: i, proposal });
    }
  });
  return out;
}

/** Confidence bands: green at 0.85 and above, yellow from 0.6, red below. */
export function confidenceColor(confidence: number): 'green' | 'yellow' | 'red' {
  if (confidence >= 0.85) return 'green';
  if (confidence >= 0.6) return 'yellow';
  return 'red';
}

export function confidencePercent(confidence: number): string {
  return `${Math.round(Math.max(0, Math.min(1, confidence)) * 100)}%`;
}

export interface SourceLocation {
  document: string;
  page: number;
  line: number;
}

/** `invoice.pdf p.1 line 3` -> {document, page, line}; null for anything else. */
export function parseLocation(location: string | null | undefined): SourceLocation | null {
  if (!location) return null;
  const m = /^(.*) p\.(\d+) line (\d+)$/.exec(location.trim());
  if (!m) return null;
  return { document: m[1], page: Number(m[2]), line: Number(m[3]) };
}

/** Key of a document line, shared by the fields that cite it and the line itself. */
export function lineKey(document: string, page: number, line: number): string {
  return `${document}\u0000${page}\u0000${line}`;
}

/** For each cited document line, the paths of the fields read from it. */
export function citedLines(fields: ProposedField[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const f of fields) {
    const loc = parseLocation(f.proposal.location);
    if (!loc) continue;
    const key = lineKey(loc.document, loc.page, loc.line);
    map.set(key, [...(map.get(key) ?? []), f.path]);
  }
  return map;
}

/** A proposed value as the text an input shows. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Every field pending. */
export function initialReview(fields: ProposedField[]): Record<string, FieldReview> {
  return Object.fromEntries(
    fields.map((f) => [f.path, { decision: 'pending', edited: valueText(f.proposal.value) }]),
  );
}

/** Accept every field still pending (edits and rejections stay). */
export function acceptAll(review: Record<string, FieldReview>): Record<string, FieldReview> {
  return Object.fromEntries(
    Object.entries(review).map(([path, r]) => [
      path,
      r.decision === 'pending' ? { ...r, decision: 'accepted' as const } : r,
    ]),
  );
}

export function reviewCounts(review: Record<string, FieldReview>) {
  const counts = { pending: 0, accepted: 0, edited: 0, rejected: 0 };
  for (const r of Object.values(review)) counts[r.decision] += 1;
  return counts;
}

/**
 * The edited text as the form's value: a number when the proposal was a number and the text
 * reads as one (so `13.1` stays numeric), '' as null, else the trimmed text.
 */
export function editedValue(proposed: unknown, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (typeof proposed === 'number') {
    const n = Number(trimmed.replace(/,/g, ''));
    if (Number.isFinite(n)) return n;
  }
  return trimmed;
}

function setPath(form: Record<string, unknown>, field: ProposedField, value: unknown): void {
  if (field.line === undefined) {
    form[field.name] = value;
    return;
  }
  const lines = Array.isArray(form[GOODS_KEY]) ? (form[GOODS_KEY] as unknown[]) : [];
  const copy = lines.map((l) => (l && typeof l === 'object' ? { ...(l as object) } : {}));
  while (copy.length <= field.line) copy.push({});
  (copy[field.line] as Record<string, unknown>)[field.name] = value;
  form[GOODS_KEY] = copy;
}

/**
 * The form to accept: the proposal's form with each rejected field emptied and each edited
 * field replaced. Pending and accepted fields keep the proposed value (the server records
 * the decisions by comparing this form with its stored proposal).
 */
export function reviewedForm(
  draft: Pick<AiDraft, 'form'>,
  fields: ProposedField[],
  review: Record<string, FieldReview>,
): Record<string, unknown> {
  const form: Record<string, unknown> = { ...draft.form };
  if (Array.isArray(form[GOODS_KEY])) {
    form[GOODS_KEY] = (form[GOODS_KEY] as unknown[]).map((l) =>
      l && typeof l === 'object' ? { ...(l as object) } : l,
    );
  }
  for (const f of fields) {
    const r = review[f.path];
    if (!r) continue;
    if (r.decision === 'rejected') setPath(form, f, null);
    else if (r.decision === 'edited') setPath(form, f, editedValue(f.proposal.value, r.edited));
  }
  return form;
}
