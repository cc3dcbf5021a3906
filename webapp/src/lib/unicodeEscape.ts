// The spec's helper for special characters: plain text <-> unicode-escape form. Every UTF-16
// code unit outside printable ASCII (0x20-0x7e), and the backslash itself, is written as
// `\uXXXX` (lower-case hex), so a character beyond the BMP becomes its surrogate pair. This is
// what the server's `GET /api/v1/ups-id` answers (docs/identity.md).

const ESCAPE = /\\u([0-9a-fA-F]{4})/g;

function printable(unit: number): boolean {
  return unit >= 0x20 && unit <= 0x7e && unit !== 0x5c;
}

/** Plain text to the escaped form: `易-1\` -> `\u6613-1\u005c`. */
export function toUnicodeEscape(plain: string): string {
  let out = '';
  for (let i = 0; i < plain.length; i += 1) {
    const unit = plain.charCodeAt(i);
    out += printable(unit) ? plain[i] : `\\u${unit.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/**
 * The escaped form back to plain text. Every `\uXXXX` (either case of hex) becomes its code
 * unit, so consecutive surrogate escapes join into one character; anything else, including
 * a backslash that does not start a complete escape, stays as it is.
 */
export function fromUnicodeEscape(escaped: string): string {
  return escaped.replace(ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}
