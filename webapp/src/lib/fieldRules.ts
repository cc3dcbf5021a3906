// The field rules every form shares, mirroring the server's `command/src/rules/` (tracking.rs,
// phone.rs): tracking numbers by their format and check digits, phone numbers as mainland
// mobile, landline or international numbers. Pure: each answers a rule id or null.

/** A tracking number without spaces and hyphens, in capitals (how numbers are compared). */
export function compactTracking(value: string): string {
  return value.replace(/[\s-]/g, '').toUpperCase();
}

const upsValue = (c: string) => {
  const code = c.charCodeAt(0);
  return code <= 57 ? code - 48 : (code - 63) % 10;
};

/** The UPS check digit of the 15 characters after `1Z`, or null when they are not capitals and digits. */
export function upsCheckDigit(body15: string): number | null {
  if (!/^[A-Z0-9]{15}$/.test(body15)) return null;
  let sum = 0;
  for (let i = 0; i < 15; i++) sum += (i % 2 === 1 ? 2 : 1) * upsValue(body15[i]);
  return (10 - (sum % 10)) % 10;
}

/** The UPU S10 check digit of an 8-digit serial number (weights 8 6 4 2 3 5 9 7, modulo 11). */
export function s10CheckDigit(serial8: string): number | null {
  if (!/^\d{8}$/.test(serial8)) return null;
  const weights = [8, 6, 4, 2, 3, 5, 9, 7];
  const sum = weights.reduce((s, w, i) => s + w * Number(serial8[i]), 0);
  const d = 11 - (sum % 11);
  return d === 10 ? 0 : d === 11 ? 5 : d;
}

/** A valid `1Z` number from the first 15 capitals and digits of `body` (padded with 0). */
export function makeUps(body: string): string {
  const b = body
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 15)
    .padEnd(15, '0');
  return `1Z${b}${upsCheckDigit(b)}`;
}

export type TrackingRule =
  'tracking_format' | 'tracking_ups_format' | 'tracking_check_digit' | 'tracking_short';

/**
 * A tracking number's problem, or null: `1Z` numbers are 18 characters with the UPS check
 * digit, S10 numbers (2 letters, 9 digits, 2 letters) carry their check digit, any other needs
 * at least 8 letters and digits, at least 4 of them digits. Case, spaces and hyphens are ignored.
 */
export function checkTracking(value: string): TrackingRule | null {
  if (!/^[A-Za-z0-9\s-]*$/.test(value)) return 'tracking_format';
  const c = compactTracking(value);
  if (c.startsWith('1Z')) {
    if (!/^1Z[A-Z0-9]{16}$/.test(c)) return 'tracking_ups_format';
    return String(upsCheckDigit(c.slice(2, 17))) === c[17] ? null : 'tracking_check_digit';
  }
  if (/^[A-Z]{2}\d{9}[A-Z]{2}$/.test(c)) {
    return String(s10CheckDigit(c.slice(2, 10))) === c[10] ? null : 'tracking_check_digit';
  }
  const digits = c.replace(/\D/g, '').length;
  return c.length >= 8 && digits >= 4 ? null : 'tracking_short';
}

const mobile = (d: string) => /^1[3-9]\d{9}$/.test(d);
const landline = (d: string) => /^(400|800)\d{7}$/.test(d) || /^0[1-9]\d{8,10}$/.test(d);
const international = (d: string) => /^[1-9]\d{6,14}$/.test(d);

/** Mainland mobile, mainland landline (with area code; `400`/`800`), or international (`+`/`00`). */
export function phoneOk(value: string): boolean {
  const s = value.trim();
  const ext = /^(.*?)\s*(?:ext\.?|#|x|转)\s*\d{1,6}$/i.exec(s);
  if (ext && !/[^0-9\s\-.()]/.test(ext[1])) return landline(ext[1].replace(/[\s\-.()]/g, ''));
  const m = /^(\+?)([0-9\s\-.()]*)$/.exec(s);
  if (!m) return false;
  const plus = m[1] === '+';
  const d = m[2].replace(/[\s\-.()]/g, '');
  if (plus) {
    if (d.startsWith('86')) {
      const cn = d.slice(2);
      return cn.startsWith('1') ? mobile(cn) : landline(`0${cn}`) || international(d);
    }
    return international(d);
  }
  if (d.startsWith('00')) {
    const intl = d.slice(2);
    return intl.startsWith('86') && intl[2] === '1' ? mobile(intl.slice(2)) : international(intl);
  }
  if (mobile(d) || landline(d)) return true;
  // A landline with an extension after a hyphen: 021-61234567-8012.
  const dash = /^(.*)-(\d{1,6})$/.exec(s);
  if (dash && !/[^0-9\s\-.()]/.test(dash[1])) {
    const base = dash[1].replace(/[\s\-.()]/g, '');
    return landline(base) && base.length + dash[2].length > 12;
  }
  return false;
}
