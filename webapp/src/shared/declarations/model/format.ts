// Locale-aware formatting of numbers and values for the declaration screens (dates: lib/dates).

export function isEnglish(lang: string | undefined): boolean {
  return Boolean(lang?.startsWith('en'));
}

export function formatNumber(
  value: number | null | undefined,
  lang: string | undefined,
  maximumFractionDigits = 4,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  return new Intl.NumberFormat(isEnglish(lang) ? 'en' : 'zh-CN', {
    maximumFractionDigits,
  }).format(value);
}

export function formatMoney(
  value: number | null | undefined,
  currency: string | null | undefined,
  lang: string | undefined,
): string {
  if (value === null || value === undefined) return '';
  const n = formatNumber(value, lang, 2);
  return currency ? `${n} ${currency}` : n;
}

/** Any JSON value of a history change, short. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '∅';
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  return JSON.stringify(value);
}
