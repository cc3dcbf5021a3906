// Between the API's declaration and the form's values: inputs hold '' for "empty", the API
// wants null (blank strings count as absent on the server too), numbers as numbers.
import {
  GOODS_NUMBER_FIELDS,
  GOODS_TEXT_FIELDS,
  NUMBER_FIELDS,
  TEXT_FIELDS,
  type Declaration,
  type DeclarationData,
  type GoodsLine,
  type Product,
} from './types';
import { toNumber } from './validation';

export type FormScalar = string | number;
export type GoodsLineValues = Record<string, FormScalar>;
export interface ProductValues {
  productDescription: string;
  productDescriptionEnglish: string;
  htsCode: string;
}
export type DeclarationFormValues = Record<string, FormScalar> & {
  declarationGoodsInfo: GoodsLineValues[];
  products: ProductValues[];
  declareType: string[];
};

const str = (v: unknown): string =>
  v === null || v === undefined ? '' : typeof v === 'string' ? v : String(v);
const num = (v: unknown): FormScalar => (typeof v === 'number' ? v : v ? str(v) : '');

export function emptyGoodsLine(goodsNo?: number): GoodsLineValues {
  const line: GoodsLineValues = {};
  for (const f of GOODS_TEXT_FIELDS) line[f] = '';
  for (const f of GOODS_NUMBER_FIELDS) line[f] = '';
  if (goodsNo) line.goodsNo = goodsNo;
  return line;
}

export function goodsLineValues(line: GoodsLine): GoodsLineValues {
  const out = emptyGoodsLine();
  const l = line as Record<string, unknown>;
  for (const f of GOODS_TEXT_FIELDS) out[f] = str(l[f]);
  for (const f of GOODS_NUMBER_FIELDS) out[f] = num(l[f]);
  return out;
}

export function emptyProduct(): ProductValues {
  return { productDescription: '', productDescriptionEnglish: '', htsCode: '' };
}

/** Form values from a declaration (edit) or a blank form (new; currency defaults to CNY). */
export function toFormValues(
  existing?: Partial<Declaration> | DeclarationData | null,
): DeclarationFormValues {
  const d = (existing ?? {}) as Record<string, unknown>;
  const values = {
    declarationGoodsInfo: ((existing?.declarationGoodsInfo ?? []) as GoodsLine[]).map(
      goodsLineValues,
    ),
    products: ((existing?.products ?? []) as Product[]).map((p) => ({
      productDescription: str(p.productDescription),
      productDescriptionEnglish: str(p.productDescriptionEnglish),
      htsCode: str(p.htsCode),
    })),
    declareType: Array.isArray(d.declareType) ? (d.declareType as unknown[]).map(str) : [],
  } as DeclarationFormValues;
  for (const f of TEXT_FIELDS) values[f] = str(d[f]);
  for (const f of NUMBER_FIELDS) values[f] = num(d[f]);
  if (!existing) {
    values.currencyCode = 'CNY';
    values.declarationGoodsInfo = [emptyGoodsLine(1)];
  }
  return values;
}

const text = (v: unknown): string | null => {
  const s = str(v).trim();
  return s === '' ? null : s;
};

/**
 * A number as a number; what is not one stays as typed, so the form's rules refuse it
 * (`number`) instead of the value vanishing. Blank is null.
 */
const numberOrText = (v: unknown): number | string | null => toNumber(v) ?? text(v);

function lineIsBlank(line: GoodsLineValues): boolean {
  return Object.entries(line).every(([k, v]) => k === 'goodsNo' || str(v).trim() === '');
}

/** The body of create / edit: every field, blanks as null, numbers as numbers. */
export function toPayload(values: DeclarationFormValues): DeclarationData {
  const out: Record<string, unknown> = {};
  for (const f of TEXT_FIELDS) out[f] = text(values[f]);
  for (const f of NUMBER_FIELDS) out[f] = numberOrText(values[f]);
  // Trailing blank lines are dropped; others stay so server error paths keep their indices.
  let end = values.declarationGoodsInfo.length;
  while (end > 0 && lineIsBlank(values.declarationGoodsInfo[end - 1])) end--;
  out.declarationGoodsInfo = values.declarationGoodsInfo.slice(0, end).map((line) => {
    const l: Record<string, unknown> = {};
    for (const f of GOODS_TEXT_FIELDS) l[f] = text(line[f]);
    for (const f of GOODS_NUMBER_FIELDS) l[f] = numberOrText(line[f]);
    return l as GoodsLine;
  });
  out.products = values.products
    .map((p) => ({
      productDescription: text(p.productDescription),
      productDescriptionEnglish: text(p.productDescriptionEnglish),
      htsCode: text(p.htsCode),
    }))
    .filter((p) => p.productDescription || p.productDescriptionEnglish || p.htsCode);
  out.declareType = values.declareType.map((v) => v.trim()).filter(Boolean);
  return out as DeclarationData;
}

/** A fresh Idempotency-Key (crypto.randomUUID where available). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto as Crypto | undefined;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return `k-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random()
    .toString(36)
    .slice(2)}`;
}
