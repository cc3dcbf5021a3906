// Reading history entries: which field a change path names, and whether a whole goods line
// was added or removed.
export interface ChangePath {
  /** Top-level field, e.g. `grossWeight`, or `declarationGoodsInfo` / `products`. */
  field: string;
  /** Index of the goods line / product, when the path names one. */
  index?: number;
  /** The line's field, e.g. `goodsCode`. */
  sub?: string;
}

/** `declarationGoodsInfo[2].goodsCode` -> {field, index: 2, sub: 'goodsCode'}. */
export function parseChangePath(path: string): ChangePath {
  const m = /^([A-Za-z]+)\[(\d+)\](?:\.([A-Za-z]+))?$/.exec(path);
  if (m) return { field: m[1], index: Number(m[2]), sub: m[3] };
  return { field: path };
}

/** 'added' when a whole line appears, 'removed' when it goes, else null. */
export function lineChangeKind(
  path: string,
  old: unknown,
  next: unknown,
): 'added' | 'removed' | null {
  const p = parseChangePath(path);
  if (p.index === undefined || p.sub) return null;
  if (old === null || old === undefined) return 'added';
  if (next === null || next === undefined) return 'removed';
  return null;
}

/** The lists whose items a change path can name: goods lines and (shipment form) products. */
export type LineGroup = 'declarationGoodsInfo' | 'products';
const LINE_GROUPS: readonly string[] = ['declarationGoodsInfo', 'products'];

/** One field of a line: its key (`goodsCode`), the value before and after. */
export interface LineFieldChange {
  sub: string;
  old: unknown;
  new: unknown;
}

/** What one edit did to one line, field by field. */
export interface LineDiff {
  group: LineGroup;
  index: number;
  kind: 'added' | 'removed' | 'changed';
  /** Added: the fields the new line holds; removed: those it held; changed: those that changed. */
  fields: LineFieldChange[];
}

export interface GroupedChanges<C> {
  /** Changes outside the lines (`grossWeight`), as recorded. */
  fields: C[];
  /** One entry per line touched, goods lines first, each list in line order. */
  lines: LineDiff[];
}

function isEmptyValue(v: unknown): boolean {
  return v === null || v === undefined || v === '';
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * An edit's changes (`{field, old, new}` by JSON path, as the server's diff records them:
 * one per changed leaf, a whole line when one is added or removed) grouped by line: per line
 * whether it was added, removed or changed, and which of its fields from what to what. An
 * added line lists the fields it holds, a removed one those it held (empty ones left out).
 */
export function groupChanges<C extends { field: string; old: unknown; new: unknown }>(
  changes: readonly C[],
): GroupedChanges<C> {
  const fields: C[] = [];
  const lines = new Map<string, LineDiff>();
  const lineOf = (group: LineGroup, index: number, kind: LineDiff['kind']) => {
    const key = `${group}[${index}]`;
    let line = lines.get(key);
    if (!line) {
      line = { group, index, kind, fields: [] };
      lines.set(key, line);
    }
    return line;
  };
  for (const c of changes) {
    const p = parseChangePath(c.field);
    if (p.index === undefined || !LINE_GROUPS.includes(p.field)) {
      fields.push(c);
      continue;
    }
    const group = p.field as LineGroup;
    if (p.sub) {
      lineOf(group, p.index, 'changed').fields.push({ sub: p.sub, old: c.old, new: c.new });
      continue;
    }
    // A whole line: added (nothing before), removed (nothing after), or replaced.
    const before = isRecord(c.old) ? c.old : {};
    const after = isRecord(c.new) ? c.new : {};
    const kind = isEmptyValue(c.old) ? 'added' : isEmptyValue(c.new) ? 'removed' : 'changed';
    const line = lineOf(group, p.index, kind);
    line.kind = kind;
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    for (const sub of keys) {
      const o = before[sub];
      const n = after[sub];
      if (
        kind === 'changed'
          ? JSON.stringify(o) === JSON.stringify(n)
          : isEmptyValue(o) && isEmptyValue(n)
      )
        continue;
      line.fields.push({ sub, old: o ?? null, new: n ?? null });
    }
  }
  const order = (l: LineDiff) => LINE_GROUPS.indexOf(l.group) * 1e6 + l.index;
  return { fields, lines: [...lines.values()].sort((a, b) => order(a) - order(b)) };
}

/** The changes an event payload records (`{changes: [{field, old, new}]}`), or null. */
export function payloadChanges(
  payload: unknown,
): { field: string; old: unknown; new: unknown }[] | null {
  if (!isRecord(payload) || !Array.isArray(payload.changes)) return null;
  const list = payload.changes.filter(
    (c): c is { field: string; old: unknown; new: unknown } =>
      isRecord(c) && typeof c.field === 'string' && 'old' in c && 'new' in c,
  );
  return list.length > 0 && list.length === payload.changes.length ? list : null;
}
