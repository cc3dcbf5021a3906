// Unit conversion by the unit table (`GET /api/v1/reference/units`: `code`, `convCode`,
// `convRatio`), read as the server reads it (command/src/reference/data.rs
// `unit_conversion`): a unit converts to its `convCode` times `convRatio`, following the
// chain to a base unit (083 ounce -> 036 gram -> 035 kilogram); a base unit converts to
// itself; empty, `0` or `00` means not convertible.
import type { GoodsLine } from '@/shared/declarations/model/types';
import { goodsTotals, toNumber, type GoodsTotals } from '@/shared/declarations/model/validation';

export interface UnitRow {
  code: string;
  convCode?: unknown;
  convRatio?: unknown;
}

export type UnitTable = ReadonlyMap<string, UnitRow>;

/** The kilogram: the base unit weights are summed in. */
export const KILOGRAM = '035';

export function unitTable(rows: readonly UnitRow[] | undefined): UnitTable {
  return new Map((rows ?? []).map((r) => [String(r.code).trim(), r]));
}

const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v).trim());

/** `[base unit, how many base units one unit is]`, or null when not convertible. */
export function toBase(table: UnitTable, unit: string): [string, number] | null {
  let code = unit.trim();
  let ratio = 1;
  // A chain longer than the table is a cycle in the data: give up rather than loop.
  for (let step = 0; step <= table.size; step++) {
    const row = table.get(code);
    if (!row) return null;
    const conv = cell(row.convCode);
    const r = Number(cell(row.convRatio));
    if (!conv || conv === '0' || conv === '00' || !Number.isFinite(r) || r === 0) {
      // The unit asked for is not convertible; one reached through a chain is the base.
      return step > 0 ? [code, ratio] : null;
    }
    if (conv === code) return [code, ratio];
    ratio *= r;
    code = conv;
  }
  return null;
}

/** Round to the 4 decimal places the quantities carry, without float noise. */
export function round4(n: number): number {
  return Math.round((n + Number.EPSILON) * 10000) / 10000;
}

/** `quantity` of `from` expressed in `to`; null when the two do not share a base unit. */
export function convert(
  table: UnitTable,
  quantity: number,
  from: string,
  to: string,
): number | null {
  if (from.trim() === to.trim()) return quantity;
  const a = toBase(table, from);
  const b = toBase(table, to);
  if (!a || !b || a[0] !== b[0]) return null;
  return round4((quantity * a[1]) / b[1]);
}

export interface LegalQuantities {
  quantityOne?: number;
  quantityTwo?: number;
}

/**
 * The legal quantities of a goods line computed from its declared quantity and unit, for
 * each legal unit (`unitOne`, `unitTwo`) the line carries (the product library fills them)
 * that shares a base unit with `goodsUnit`. Units that do not convert (pieces to kilograms)
 * are left out: the user fills those.
 */
export function legalQuantities(table: UnitTable, line: GoodsLine): LegalQuantities {
  const qty = toNumber(line.goodsQuantity);
  const unit = (line.goodsUnit ?? '').trim();
  const out: LegalQuantities = {};
  if (qty === null || !unit) return out;
  const one = (line.unitOne ?? '').trim();
  const two = (line.unitTwo ?? '').trim();
  if (one) {
    const q = convert(table, qty, unit, one);
    if (q !== null) out.quantityOne = q;
  }
  if (two) {
    const q = convert(table, qty, unit, two);
    if (q !== null) out.quantityTwo = q;
  }
  return out;
}

export interface WizardTotals extends GoodsTotals {
  /**
   * Kilograms of the lines whose weight can be told (a declared or a legal unit that
   * converts to kg); `null` when no line's can.
   */
  linesKg: number | null;
  /** How many lines gave a weight. */
  weighedLines: number;
  grossWeight: number | null;
  netWeight: number | null;
  /** Net above gross: the server refuses it on submit. */
  netAboveGross: boolean;
}

function lineKg(table: UnitTable, line: GoodsLine): number | null {
  const pairs: [unknown, string | null | undefined][] = [
    [line.goodsQuantity, line.goodsUnit],
    [line.quantityOne, line.unitOne],
    [line.quantityTwo, line.unitTwo],
  ];
  for (const [q, u] of pairs) {
    const n = toNumber(q);
    if (n === null || !u) continue;
    const kg = convert(table, n, u, KILOGRAM);
    if (kg !== null) return kg;
  }
  return null;
}

/** Goods value per currency and quantity (the form's totals), line weights and the header's. */
export function wizardTotals(
  table: UnitTable,
  lines: readonly GoodsLine[],
  header: { currencyCode?: unknown; grossWeight?: unknown; netWeight?: unknown },
): WizardTotals {
  const base = goodsTotals(lines, header.currencyCode ? String(header.currencyCode) : null);
  let kg = 0;
  let weighed = 0;
  for (const line of lines) {
    const w = lineKg(table, line);
    if (w === null) continue;
    kg += w;
    weighed += 1;
  }
  const gross = toNumber(header.grossWeight);
  const net = toNumber(header.netWeight);
  return {
    ...base,
    linesKg: weighed > 0 ? round4(kg) : null,
    weighedLines: weighed,
    grossWeight: gross,
    netWeight: net,
    netAboveGross: gross !== null && net !== null && net > gross,
  };
}
