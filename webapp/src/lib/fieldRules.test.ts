import { describe, expect, it } from 'vitest';
import {
  checkTracking,
  compactTracking,
  makeUps,
  phoneOk,
  s10CheckDigit,
  upsCheckDigit,
} from './fieldRules';

describe('tracking numbers (the server rule of command/src/rules/tracking.rs)', () => {
  it('checks 1Z numbers by length and the UPS check digit, ignoring case and spaces', () => {
    expect(upsCheckDigit('999AA1012345678')).toBe(4);
    expect(checkTracking('1Z999AA10123456784')).toBeNull();
    expect(checkTracking('1z 999 aa1 0123 4567 84')).toBeNull();
    expect(checkTracking('1Z999AA10123456785')).toBe('tracking_check_digit');
    expect(checkTracking('1ZACME00DEMO03')).toBe('tracking_ups_format');
    expect(checkTracking(makeUps('ACME00DEMO03'))).toBeNull();
    expect(makeUps('999AA1012345678')).toBe('1Z999AA10123456784');
  });
  it('checks S10 numbers by their check digit', () => {
    expect(s10CheckDigit('47312482')).toBe(9);
    expect(s10CheckDigit('00000008')).toBe(0);
    expect(s10CheckDigit('00000015')).toBe(5);
    expect(checkTracking('RA473124829CN')).toBeNull();
    expect(checkTracking('RA473124828CN')).toBe('tracking_check_digit');
  });
  it('asks any other number for 8 letters and digits, 4 of them digits', () => {
    expect(checkTracking('ABC123')).toBe('tracking_short');
    expect(checkTracking('ABCDEFG123')).toBe('tracking_short');
    expect(checkTracking('CW12345678')).toBeNull();
    expect(checkTracking('AB#12345678')).toBe('tracking_format');
    expect(compactTracking(' 1z 999-aa ')).toBe('1Z999AA');
  });
});

describe('phone numbers (the server rule of command/src/rules/phone.rs)', () => {
  it.each([
    '13800138000',
    '138 0013 8000',
    '+86 138 0013 8000',
    '0086-13800138000',
    '021-61234567',
    '(0755) 8888 6666',
    '+86 21 6123 4567',
    '400-820-8820',
    '021-61234567-8012',
    '021-61234567 ext 8',
    '+1 415 555 0100',
    '0044 20 7946 0958',
  ])('takes %s', (v) => expect(phoneOk(v)).toBe(true));
  it.each([
    'not-a-phone',
    '12345',
    '12800138000',
    '61234567',
    '+12345',
    '+0 123 4567',
    '+1 415 555 0100 0000 00',
    '',
  ])('refuses %s', (v) => expect(phoneOk(v)).toBe(false));
});
