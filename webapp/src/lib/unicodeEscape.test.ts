import { describe, expect, it } from 'vitest';
import { fromUnicodeEscape, toUnicodeEscape } from './unicodeEscape';

describe('toUnicodeEscape', () => {
  it('keeps printable ASCII, including the space, as it is', () => {
    expect(toUnicodeEscape('ACME-EC-0001')).toBe('ACME-EC-0001');
    expect(toUnicodeEscape(' !~ az AZ 09 ')).toBe(' !~ az AZ 09 ');
    expect(toUnicodeEscape('')).toBe('');
  });

  it('escapes other characters as four lower-case hex digits (as the server does)', () => {
    expect(toUnicodeEscape('易清关-0042')).toBe('\\u6613\\u6e05\\u5173-0042');
    expect(toUnicodeEscape('上海1')).toBe('\\u4e0a\\u6d771');
    expect(toUnicodeEscape('é\u00a0\u007f\t\n')).toBe('\\u00e9\\u00a0\\u007f\\u0009\\u000a');
  });

  it('escapes the backslash, so an escaped text is never ambiguous', () => {
    expect(toUnicodeEscape('a\\b')).toBe('a\\u005cb');
    expect(toUnicodeEscape('\\u0041')).toBe('\\u005cu0041');
  });

  it('writes an astral character as its surrogate pair', () => {
    expect(toUnicodeEscape('😀')).toBe('\\ud83d\\ude00');
    expect(toUnicodeEscape('𠀀x')).toBe('\\ud840\\udc00x');
  });
});

describe('fromUnicodeEscape', () => {
  it('decodes escapes in either case and leaves plain text alone', () => {
    expect(fromUnicodeEscape('\\u6613\\u6E05\\u5173-0042')).toBe('易清关-0042');
    expect(fromUnicodeEscape('ACME-EC-0001')).toBe('ACME-EC-0001');
  });

  it('joins surrogate escapes into one astral character', () => {
    const decoded = fromUnicodeEscape('\\ud83d\\ude00!');
    expect(decoded).toBe('😀!');
    expect([...decoded]).toHaveLength(2);
  });

  it('decodes an escaped backslash without treating what follows as an escape', () => {
    expect(fromUnicodeEscape('a\\u005cb')).toBe('a\\b');
    expect(fromUnicodeEscape('\\u005cu0041')).toBe('\\u0041');
  });

  it('keeps incomplete escapes as they are', () => {
    expect(fromUnicodeEscape('\\u12')).toBe('\\u12');
    expect(fromUnicodeEscape('\\x41 \\u12g4')).toBe('\\x41 \\u12g4');
  });

  it('round-trips any text', () => {
    for (const text of ['', 'plain', '易清关\\😀 \u0000é', 'a\\\\u0041', '\ud800 lone']) {
      expect(fromUnicodeEscape(toUnicodeEscape(text))).toBe(text);
    }
  });
});
