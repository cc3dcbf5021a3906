// The customs receipt codes (CUSTOMS.md) and how the screens name them.

/** Every receipt code, in the order of the contract's table. */
export const RECEIPT_CODES = [
  'L',
  'G',
  'C',
  'T',
  'H',
  'M',
  'P',
  'R',
  'E',
  'Z',
  'Y',
  'Sp1',
] as const;
export type ReceiptCode = (typeof RECEIPT_CODES)[number];

/** The list filter's values: every code, and `none` (customs has not answered yet). */
export const RECEIPT_FILTER_VALUES = [...RECEIPT_CODES, 'none'] as const;

export function isReceiptCode(code: string | null | undefined): code is ReceiptCode {
  return !!code && (RECEIPT_CODES as readonly string[]).includes(code);
}

/** `customs.code.<code>` for a known code; the code itself otherwise. */
export function receiptLabel(t: (key: string) => string, code: string): string {
  return isReceiptCode(code) || code === 'none' ? t(`customs.code.${code}`) : code;
}

/** Codes that mean customs is holding the declaration (the welcome page's card). */
export const HOLD_REASONS = ['C', 'H', 'Sp1', 'silent'] as const;

/** A held time in whole days (from one day) or hours. */
export function ageParts(seconds: number): { unit: 'days' | 'hours'; count: number } {
  const hours = Math.floor(Math.max(0, seconds) / 3600);
  return hours >= 24
    ? { unit: 'days', count: Math.floor(hours / 24) }
    : { unit: 'hours', count: hours };
}
