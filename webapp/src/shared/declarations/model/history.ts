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
