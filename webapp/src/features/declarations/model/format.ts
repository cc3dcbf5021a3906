// Locale-aware formatting of dates and numbers for the declaration screens.
import dayjs from 'dayjs';

export function isEnglish(lang: string | undefined): boolean {
  return Boolean(lang?.startsWith('en'));
}

/** `2026-11-22 09:30` (times arrive in Asia/Shanghai with their offset). */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : String(value);
}

export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  if (/^\d{8}$/.test(value)) return `${value.slice(0, 4)}-${value.slice(4, 6)}-${value.slice(6)}`;
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD') : String(value);
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
