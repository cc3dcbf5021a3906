// Client-side validation mirroring the server's rules (docs/fields.md; command/src/
// declaration/shape.rs and validate/). Pure: no React, no i18n. A violation names its field
// by the server's JSON path (`declarationGoodsInfo[2].goodsCode`) and its rule id; the form
// maps paths with `toFormPath` and messages with `declarations:rule.<rule>`.
//
// Not mirrored here: the class C limit of CNY 5,000 (it needs the exchange rates of the
// declaration's date) and the tariff table behind `goodsCode`; the server reports both.
import type { DeclarationClass, DeclarationData, Direction, GoodsLine } from './types';
import { GOODS_NUMBER_FIELDS, NUMBER_FIELDS, classOf, directionOf } from './types';
import { checkTracking, phoneOk } from '@/lib/fieldRules';

export interface Violation {
  field: string;
  rule: string;
  params?: Record<string, string | number>;
}

/** `(table, code)` -> known? `undefined` when the table is not loaded (not checked). */
export type ReferenceLookup = (table: string, code: string) => boolean | undefined;

export const MAX_TRACKING_LENGTH = 64;
export const MAX_STRING_LENGTH = 1000;
export const MAX_ITEMS = 1000;
export const TOTAL_TOLERANCE = 0.01;

// ---------------------------------------------------------------- formats

const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The USCC check character for 17 characters, or null when they are not of the alphabet. */
export function usccCheckChar(first17: string): string | null {
  if (first17.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const v = USCC_ALPHABET.indexOf(first17[i]);
    if (v < 0) return null;
    sum += v * USCC_WEIGHTS[i];
  }
  return USCC_ALPHABET[(31 - (sum % 31)) % 31];
}

/** GB 32100-2015: 'ok', 'format' (not 18 characters of the alphabet) or 'check'. */
export function checkUscc(code: string): 'ok' | 'format' | 'check' {
  if (code.length !== 18 || [...code].some((c) => !USCC_ALPHABET.includes(c))) return 'format';
  return usccCheckChar(code.slice(0, 17)) === code[17] ? 'ok' : 'check';
}

/** 18 characters: 17 digits, then a digit or X. */
export function looksLikePrcId(value: string): boolean {
  return /^\d{17}[\dXx]$/.test(value);
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK = '10X98765432';

/** ISO 7064 MOD 11-2 check character of a PRC ID number. */
export function prcIdCheckOk(value: string): boolean {
  if (!looksLikePrcId(value)) return false;
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(value[i]) * ID_WEIGHTS[i];
  return value[17].toUpperCase() === ID_CHECK[sum % 11];
}

/** Customs registration code: 4 digits and 6 digits or capitals. */
export const isCustomsCode = (v: string) => /^\d{4}[0-9A-Z]{6}$/.test(v);
export const isDigits = (v: string, n: number) => new RegExp(`^\\d{${n}}$`).test(v);

/** YYYYMMDD, YYYY-MM-DD or an ISO 8601 timestamp naming a real day. */
export function isReadableDate(value: string): boolean {
  const v = value.trim();
  let m = /^(\d{4})(\d{2})(\d{2})$/.exec(v) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) {
    m = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.exec(v);
    if (!m) return false;
  }
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

// ---------------------------------------------------------------- helpers

/** A non-blank string (blank strings count as absent), trimmed. */
export function present(v: unknown): string | null {
  if (typeof v === 'string') return v.trim() === '' ? null : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return null;
}

/** A number from a number or a numeric string; null when absent or unreadable. */
export function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** unitPrice x goodsQuantity, rounded to 4 places; null unless both are set. */
export function expectedTotal(line: GoodsLine): number | null {
  const q = toNumber(line.goodsQuantity);
  const u = toNumber(line.unitPrice);
  if (q === null || u === null) return null;
  return Math.round(q * u * 10000) / 10000;
}

/** A line's value: totalPrice, else unitPrice x goodsQuantity. */
export function lineValue(line: GoodsLine): number | null {
  return toNumber(line.totalPrice) ?? expectedTotal(line);
}

export interface GoodsTotals {
  lines: number;
  quantity: number;
  /** Sum of line values per currency (a line without currency uses the form's, else CNY). */
  byCurrency: Record<string, number>;
}

export function goodsTotals(
  lines: readonly GoodsLine[],
  formCurrency?: string | null,
): GoodsTotals {
  const byCurrency: Record<string, number> = {};
  let quantity = 0;
  for (const line of lines) {
    quantity += toNumber(line.goodsQuantity) ?? 0;
    const value = lineValue(line);
    if (value === null) continue;
    const cur = (present(line.currency) ?? present(formCurrency) ?? 'CNY').toUpperCase();
    byCurrency[cur] = Math.round(((byCurrency[cur] ?? 0) + value) * 100) / 100;
  }
  return { lines: lines.length, quantity: Math.round(quantity * 10000) / 10000, byCurrency };
}

/** `declarationGoodsInfo[2].goodsCode` -> `declarationGoodsInfo.2.goodsCode` (form paths). */
export function toFormPath(field: string): string {
  return field.replace(/\[(\d+)\]/g, '.$1');
}

/** `declarationGoodsInfo.2.goodsCode` -> `declarationGoodsInfo[2].goodsCode`. */
export function toServerPath(path: string): string {
  return path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

// ---------------------------------------------------------------- required fields

const D_HEADER = [
  'consigneeCompanyCn',
  'consigneeScc',
  'consigneeCustomMaster',
  'consignorCompanyEn',
  'ownerCompanyName',
  'ownerCompanyScc',
  'declareCompanyName',
  'declareCompanyScc',
  'declareCompanyCustomMaster',
  'customMaster',
  'iePort',
  'supervisionMode',
  'cutMode',
  'trafficMode',
  'tradeCountry',
  'packageType',
  'packageQuantity',
  'grossWeight',
  'netWeight',
];
const GOODS_ALL = ['goodsName', 'goodsQuantity', 'goodsUnit', 'totalPrice'];
const GOODS_D = [
  'unitPrice',
  'originCountry',
  'destinationCountry',
  'districtCode',
  'dutyMode',
  'unitOne',
  'specification',
];

export interface RequiredFields {
  header: string[];
  goods: string[];
}

/** The fields a class (and direction) must fill before submit. */
export function requiredFields(cls: DeclarationClass, direction: Direction): RequiredFields {
  const header = ['trackingNumber'];
  const goods = [...GOODS_ALL];
  if (cls === 'B' || cls === 'C') header.push('shipperName', 'recipientName', 'recipientAddress');
  if (cls === 'B') header.push(direction === 'import' ? 'recipientIdNumber' : 'shipperIdNumber');
  if (cls !== 'B') goods.push('goodsCode');
  if (cls === 'D') {
    header.push(...D_HEADER, direction === 'import' ? 'despPort' : 'distinatePort');
    goods.push(...GOODS_D);
  }
  return { header, goods };
}

// ---------------------------------------------------------------- rules

class Collector {
  readonly out: Violation[] = [];
  push(field: string, rule: string, params?: Violation['params']) {
    if (!this.out.some((v) => v.field === field && v.rule === rule)) {
      this.out.push(params ? { field, rule, params } : { field, rule });
    }
  }
}

function walkStrings(value: unknown, path: string, visit: (path: string, s: string) => void) {
  if (typeof value === 'string') visit(path, value);
  else if (Array.isArray(value)) value.forEach((v, i) => walkStrings(v, `${path}[${i}]`, visit));
  else if (value && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) walkStrings(v, path ? `${path}.${k}` : k, visit);
}

function notANumber(c: Collector, path: string, v: unknown) {
  if (typeof v === 'string' && v.trim() !== '' && toNumber(v) === null)
    c.push(path, 'number', { value: v.trim() });
}

/** Draft rules (create and edit): tracking number, numbers, string lengths, list sizes. */
export function validateDraft(data: DeclarationData): Violation[] {
  const c = new Collector();
  const tracking = present(data.trackingNumber);
  if (!tracking) c.push('trackingNumber', 'required');
  else if (tracking.length > MAX_TRACKING_LENGTH)
    c.push('trackingNumber', 'max_length', { max: MAX_TRACKING_LENGTH });
  else {
    const rule = checkTracking(tracking);
    if (rule) c.push('trackingNumber', rule, { value: tracking });
  }
  // A number field holding what is not a number is refused, never dropped.
  const d = data as Record<string, unknown>;
  for (const f of NUMBER_FIELDS) notANumber(c, f, d[f]);
  (data.declarationGoodsInfo ?? []).forEach((line, i) => {
    const g = line as Record<string, unknown>;
    for (const f of GOODS_NUMBER_FIELDS) notANumber(c, `declarationGoodsInfo[${i}].${f}`, g[f]);
  });
  walkStrings(data, '', (path, s) => {
    if ([...s].length > MAX_STRING_LENGTH) c.push(path, 'max_length', { max: MAX_STRING_LENGTH });
  });
  if ((data.declarationGoodsInfo?.length ?? 0) > MAX_ITEMS)
    c.push('declarationGoodsInfo', 'max_items', { max: MAX_ITEMS });
  if ((data.products?.length ?? 0) > MAX_ITEMS) c.push('products', 'max_items', { max: MAX_ITEMS });
  return c.out;
}

const HEADER_REFS: [string, string][] = [
  ['serviceType', 'service-types'],
  ['supervisionMode', 'supervision-modes'],
  ['tradeMode', 'supervision-modes'],
  ['tradeTerms', 'trade-terms'],
  ['cutMode', 'levy-types'],
  ['trafficMode', 'transport-modes'],
  ['packageType', 'packing-types'],
  ['customType', 'customs-types'],
  ['tradeCountry', 'countries'],
  ['tradeCountryCode', 'countries'],
  ['currencyCode', 'currencies'],
  ['transpotationFeeUnit', 'currencies'],
  ['insuranceFeeUnit', 'currencies'],
  ['otherFeeUnit', 'currencies'],
  ['customMaster', 'customs-offices'],
  ['ieCustoms', 'customs-offices'],
  ['iePort', 'customs-offices'],
];
const GOODS_REFS: [string, string][] = [
  ['currency', 'currencies'],
  ['originCountry', 'countries'],
  ['destinationCountry', 'countries'],
  ['goodsUnit', 'units'],
  ['unitOne', 'units'],
  ['unitTwo', 'units'],
  ['districtCode', 'districts'],
  ['dutyMode', 'levy-methods'],
];

/**
 * Full rules (submit, resubmit, amend): draft rules, then formats, numbers, totals, class
 * rules and, when `lookup` is given, reference codes.
 */
export function validateFull(
  data: DeclarationData,
  type: string,
  lookup?: ReferenceLookup,
): Violation[] {
  const cls = classOf(type);
  const direction = directionOf(type);
  const c = new Collector();
  for (const v of validateDraft(data)) c.push(v.field, v.rule, v.params);
  const d = data as Record<string, unknown>;
  const lines = data.declarationGoodsInfo ?? [];

  const code = (field: string, table: string, value: unknown, path = field) => {
    const v = present(value);
    if (v && lookup && lookup(table, v) === false) c.push(path, 'reference_code', { table });
  };

  // Required by class.
  const req = requiredFields(cls, direction);
  for (const f of req.header) if (present(d[f]) === null) c.push(f, 'required');
  if (lines.length === 0) c.push('declarationGoodsInfo', 'min_items');

  // Parties.
  for (const f of [
    'consigneeScc',
    'consignorScc',
    'ownerCompanyScc',
    'declareCompanyScc',
    'businessUnitScc',
  ]) {
    const v = present(d[f]);
    if (!v) continue;
    const r = checkUscc(v);
    if (r === 'format') c.push(f, 'uscc_format');
    else if (r === 'check') c.push(f, 'uscc_check_digit');
  }
  for (const f of [
    'consigneeCustomMaster',
    'ownerCompanyCustomMaster',
    'declareCompanyCustomMaster',
    'businessUnitCode',
  ]) {
    const v = present(d[f]);
    if (v && !isCustomsCode(v)) c.push(f, 'customs_code');
  }
  for (const f of [
    'consigneeInspectCode',
    'ownerCompanyInspectCode',
    'declareCompanyInspectCode',
  ]) {
    const v = present(d[f]);
    if (v && !isDigits(v, 10)) c.push(f, 'inspection_code');
  }
  for (const f of ['customMaster', 'ieCustoms', 'iePort']) {
    const v = present(d[f]);
    if (v && !isDigits(v, 4)) c.push(f, 'customs_office');
  }
  for (const f of ['distinatePort', 'despPort']) {
    const v = present(d[f]);
    if (v && isDigits(v, 6)) code(f, 'ports', v);
  }
  for (const [f, table] of HEADER_REFS) code(f, table, d[f]);

  // Fees, numbers, weights.
  for (const f of ['transpotationFeeType', 'insuranceFeeType', 'otherFeeType']) {
    const v = present(d[f]);
    if (v && !['1', '2', '3'].includes(v)) c.push(f, 'fee_type');
  }
  for (const f of [
    'transpotationFeeValue',
    'insuranceFeeValue',
    'otherFeeValue',
    'containerCount',
  ]) {
    const n = toNumber(d[f]);
    if (n !== null && n < 0) c.push(f, 'non_negative');
  }
  for (const f of [
    'packageQuantity',
    'grossWeight',
    'netWeight',
    'packageWeight',
    'packageVolume',
    'packageDeclaredValue',
    'packageNumber',
    'packageGrossWeight',
    'packageNetWeight',
  ]) {
    const n = toNumber(d[f]);
    if (n !== null && n <= 0) c.push(f, 'positive');
  }
  for (const [net, gross] of [
    ['netWeight', 'grossWeight'],
    ['packageNetWeight', 'packageGrossWeight'],
  ]) {
    const n = toNumber(d[net]);
    const g = toNumber(d[gross]);
    if (n !== null && g !== null && n > g) c.push(net, 'net_weight_above_gross');
  }
  for (const f of ['specialRelationship', 'priceImpact', 'paymentPrivilege']) {
    const v = present(d[f]);
    if (v && v !== '0' && v !== '1') c.push(f, 'marker');
  }
  for (const f of ['declareDate', 'ieDate']) {
    const v = present(d[f]);
    if (v && !isReadableDate(v)) c.push(f, 'date');
  }
  for (const f of ['shipperPhone', 'recipientPhone']) {
    const v = present(d[f]);
    if (v && !phoneOk(v)) c.push(f, 'phone', { value: v });
  }
  for (const f of ['recipientIdNumber', 'shipperIdNumber']) {
    const v = present(d[f]);
    if (v && looksLikePrcId(v) && !prcIdCheckOk(v)) c.push(f, 'id_number_check_digit');
  }

  // Goods lines.
  lines.forEach((line, i) => {
    const p = (f: string) => `declarationGoodsInfo[${i}].${f}`;
    const g = line as Record<string, unknown>;
    for (const f of req.goods) {
      if (present(g[f]) === null) c.push(p(f), 'required');
    }
    const hs = present(line.goodsCode);
    if (hs && !isDigits(hs, 10)) c.push(p('goodsCode'), 'hs_code');
    for (const f of ['goodsQuantity', 'unitPrice', 'totalPrice', 'quantityOne', 'quantityTwo']) {
      const n = toNumber(g[f]);
      if (n !== null && n <= 0) c.push(p(f), 'positive');
    }
    const expected = expectedTotal(line);
    const total = toNumber(line.totalPrice);
    if (expected !== null && total !== null && Math.abs(expected - total) > TOTAL_TOLERANCE + 1e-9)
      c.push(p('totalPrice'), 'total_price', { expected });
    if (present(line.unitOne) && toNumber(line.quantityOne) === null)
      c.push(p('quantityOne'), 'required');
    if (present(line.unitTwo) && toNumber(line.quantityTwo) === null)
      c.push(p('quantityTwo'), 'required');
    for (const [f, table] of GOODS_REFS) code(f, table, g[f], p(f));
  });
  return c.out;
}

/** Violations grouped by form path (first one per field wins), for the form's errors. */
export function violationsByPath(violations: readonly Violation[]): Map<string, Violation> {
  const map = new Map<string, Violation>();
  for (const v of violations) {
    const key = toFormPath(v.field);
    if (!map.has(key)) map.set(key, v);
  }
  return map;
}

/** A warning: worth a second look, blocks nothing. */
export interface Warning {
  field: string;
  rule: 'currency_mismatch';
  params: { currency: string; header: string };
}

/** Goods lines priced in another currency than the header's `currencyCode` (as the server warns). */
export function currencyWarnings(data: DeclarationData): Warning[] {
  const header = present((data as Record<string, unknown>).currencyCode);
  if (!header) return [];
  const out: Warning[] = [];
  (data.declarationGoodsInfo ?? []).forEach((line, i) => {
    const cur = present(line.currency);
    if (cur && cur.toUpperCase() !== header.toUpperCase())
      out.push({
        field: `declarationGoodsInfo[${i}].currency`,
        rule: 'currency_mismatch',
        params: { currency: cur, header },
      });
  });
  return out;
}

/**
 * "At least one goods line" said while blank lines are on screen: the first blank line's
 * required cells are marked where they are (the payload drops trailing blank lines).
 */
export function markBlankLine(
  violations: readonly Violation[],
  linesOnScreen: number,
  type: string,
): Violation[] {
  if (linesOnScreen === 0 || !violations.some((v) => v.rule === 'min_items'))
    return [...violations];
  const { goods } = requiredFields(classOf(type), directionOf(type));
  return [
    ...violations,
    ...goods.map((f) => ({ field: `declarationGoodsInfo[0].${f}`, rule: 'required' })),
  ];
}
