// Client-side checks of the master data forms, mirroring the server's rules (the server
// decides; these only spare a round trip). Each answers {field: messageKey} for i18n.

const USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** GB 32100-2015: 18 characters of the alphabet, the last the check character. */
export function usccProblem(code: string): 'format' | 'checkDigit' | null {
  const c = code.trim().toUpperCase();
  if (c.length !== 18 || [...c].some((ch) => !USCC_ALPHABET.includes(ch))) return 'format';
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += USCC_ALPHABET.indexOf(c[i]) * USCC_WEIGHTS[i];
  const check = USCC_ALPHABET[(31 - (sum % 31)) % 31];
  return c[17] === check ? null : 'checkDigit';
}

export const isDigits = (v: string, n: number) => v.length === n && /^[0-9]+$/.test(v);

export const customsCodeOk = (v: string) => /^[0-9]{4}[0-9A-Z]{6}$/.test(v.trim().toUpperCase());

export type Problems = Record<string, string>;

const blank = (v: unknown) => v == null || String(v).trim() === '';

/** Message keys (under `masterData.error`) per field of a trade company. */
export function tradeCompanyProblems(f: Record<string, string>): Problems {
  const out: Problems = {};
  if (blank(f.companyNameCn)) out.companyNameCn = 'required';
  else if (f.companyNameCn.trim().length > 100) out.companyNameCn = 'tooLong';
  if (blank(f.uscc)) out.uscc = 'required';
  else {
    const p = usccProblem(f.uscc);
    if (p === 'format') out.uscc = 'usccFormat';
    if (p === 'checkDigit') out.uscc = 'usccCheckDigit';
  }
  if (!blank(f.customsCode) && !customsCodeOk(f.customsCode)) out.customsCode = 'customsCode';
  if (!blank(f.inspectionCode) && !isDigits(f.inspectionCode.trim(), 10))
    out.inspectionCode = 'inspectionCode';
  return out;
}

/** Message keys per field of a product (the HS subheading is the server's to judge). */
export function productProblems(f: Record<string, string>): Problems {
  const out: Problems = {};
  if (blank(f.descriptionCn)) out.descriptionCn = 'required';
  if (blank(f.hsCode)) out.hsCode = 'required';
  else if (!isDigits(f.hsCode.trim(), 10)) out.hsCode = 'hsCode';
  if (blank(f.declaredUnit)) out.declaredUnit = 'required';
  if (!blank(f.unitPrice)) {
    const n = Number(f.unitPrice);
    if (!Number.isFinite(n) || n <= 0) out.unitPrice = 'positive';
    else if (blank(f.currency)) out.currency = 'currencyWithPrice';
  }
  return out;
}
