import { describe, expect, it } from 'vitest';
import {
  isExportDateDisabled,
  validateConfirmPassword,
  validateExportRange,
  validateOldPassword,
  validatePassword,
  validateUsername,
} from './validators';

const owner = { name: 'Zhang Wei', username: 'acme', email: 'li.lei@example.com' };

describe('password rule', () => {
  it('requires a password', () => {
    expect(validatePassword('')).toBe('validation.passwordRequired');
    expect(validatePassword(undefined)).toBe('validation.passwordRequired');
    expect(validateOldPassword('')).toBe('validation.passwordRequired');
    expect(validateOldPassword('anything')).toBeNull();
  });

  it('accepts 10 to 26 characters', () => {
    expect(validatePassword('Abcdefgh1')).toBe('validation.passwordRule');
    expect(validatePassword('Abcdefgh12')).toBeNull();
    expect(validatePassword('A'.repeat(13) + 'b'.repeat(13))).toBeNull();
    expect(validatePassword('A'.repeat(14) + 'b'.repeat(13))).toBe('validation.passwordRule');
  });

  it('needs two of uppercase, lowercase and digits', () => {
    expect(validatePassword('abcdefghijk')).toBe('validation.passwordRule');
    expect(validatePassword('ABCDEFGHIJK')).toBe('validation.passwordRule');
    expect(validatePassword('12345678901')).toBe('validation.passwordRule');
    expect(validatePassword('abcdefgh!!!')).toBe('validation.passwordRule');
    expect(validatePassword('abcdefghij1')).toBeNull();
    expect(validatePassword('ABCDEFGHIJ1')).toBeNull();
    expect(validatePassword('ABCDEfghij')).toBeNull();
  });

  it('must not contain the name, username or e-mail (any case)', () => {
    expect(validatePassword('xxACME1234yy', owner)).toBe('validation.passwordRule');
    expect(validatePassword('zhang wei12345', owner)).toBe('validation.passwordRule');
    expect(validatePassword('Li.Lei@Example.com1', owner)).toBe('validation.passwordRule');
    expect(validatePassword('Li.Lei2026xx', owner)).toBe('validation.passwordRule');
    expect(validatePassword('Demopass2026', owner)).toBeNull();
  });

  it('confirms: same rule, and equal to the new password', () => {
    expect(validateConfirmPassword('', 'Demopass2026')).toBe('validation.passwordRequired');
    expect(validateConfirmPassword('short', 'Demopass2026')).toBe('validation.passwordRule');
    expect(validateConfirmPassword('Demopass2027', 'Demopass2026')).toBe(
      'validation.passwordMismatch',
    );
    expect(validateConfirmPassword('Demopass2026', 'Demopass2026')).toBeNull();
  });

  it('requires the username', () => {
    expect(validateUsername(' ')).toBe('validation.usernameRequired');
    expect(validateUsername('acme')).toBeNull();
  });
});

describe('export date range', () => {
  it('is required', () => {
    expect(validateExportRange(null)).toBe('validation.dateRangeRequired');
    expect(validateExportRange([null, null])).toBe('validation.dateRangeRequired');
    expect(validateExportRange([new Date(2026, 0, 1), null])).toBe('validation.dateRangeRequired');
  });

  it('spans at most 365 days', () => {
    expect(validateExportRange([new Date(2025, 0, 1), new Date(2026, 0, 1)])).toBeNull();
    expect(validateExportRange([new Date(2025, 0, 1), new Date(2026, 0, 2)])).toBe(
      'validation.dateRangeTooLong',
    );
    expect(validateExportRange(['2026-01-01', '2026-01-01'])).toBeNull();
  });

  it('disables future dates in the picker', () => {
    const today = new Date(2026, 10, 22, 15, 0);
    expect(isExportDateDisabled(new Date(2026, 10, 22, 23, 59), null, today)).toBe(false);
    expect(isExportDateDisabled(new Date(2026, 10, 23), null, today)).toBe(true);
  });

  it('disables dates more than 180 days either side of the first pick', () => {
    const today = new Date(2026, 10, 22);
    const first = new Date(2026, 4, 1);
    expect(isExportDateDisabled(new Date(2025, 10, 2), first, today)).toBe(false); // 180 days before
    expect(isExportDateDisabled(new Date(2025, 10, 1), first, today)).toBe(true); // 181 days before
    expect(isExportDateDisabled(new Date(2026, 9, 28), first, today)).toBe(false); // 180 days after
    expect(isExportDateDisabled(new Date(2026, 9, 29), first, today)).toBe(true); // 181 days after
  });
});
