// Every YYYYMMDD the web app sends is the Asia/Shanghai day, whatever the browser's zone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBrowserTimeZone } from '@/test/timeZone';
import {
  formatDate,
  formatDateTime,
  formatTime,
  fromShanghaiInput,
  isoToYmd,
  shanghaiTodayIso,
  shanghaiYmd,
  toShanghaiInput,
  ymdToIso,
} from './dates';

let restoreZone = () => {};

describe('the Shanghai day', () => {
  beforeEach(() => {
    // A browser whose clock runs on UTC.
    restoreZone = setBrowserTimeZone('UTC');
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    restoreZone();
  });

  it('is already tomorrow at 17:00 UTC, when the browser still reads the day before', () => {
    vi.setSystemTime(new Date('2026-11-24T17:00:00Z'));
    expect(new Date().getDate()).toBe(24);
    expect(shanghaiYmd()).toBe('20261125');
    expect(shanghaiTodayIso()).toBe('2026-11-25');
  });

  it('is the same day before 16:00 UTC', () => {
    vi.setSystemTime(new Date('2026-11-24T15:59:59Z'));
    expect(shanghaiYmd()).toBe('20261124');
  });

  it('does not follow a browser west of UTC either', () => {
    setBrowserTimeZone('America/Los_Angeles');
    vi.setSystemTime(new Date('2026-11-24T17:00:00Z'));
    expect(new Date().getDate()).toBe(24);
    expect(shanghaiYmd()).toBe('20261125');
  });

  it('counts days back across a month and a year end', () => {
    const at = new Date('2026-01-01T17:00:00Z'); // 2 January in Shanghai
    expect(shanghaiYmd(at, 1)).toBe('20260101');
    expect(shanghaiYmd(at, 29)).toBe('20251204');
    expect(shanghaiYmd(new Date('2028-03-01T00:00:00Z'), 1)).toBe('20280229');
  });
});

describe('a picked calendar day', () => {
  it('is sent as picked', () => {
    expect(isoToYmd('2026-11-22')).toBe('20261122');
    expect(ymdToIso('20261122')).toBe('2026-11-22');
    expect(ymdToIso('2026112')).toBeNull();
  });
});

describe('times on the Shanghai clock', () => {
  afterEach(() => restoreZone());

  for (const zone of ['Asia/Shanghai', 'UTC', 'America/Los_Angeles']) {
    it(`shows an instant as Shanghai time in a browser on ${zone}`, () => {
      restoreZone = setBrowserTimeZone(zone);
      expect(formatDateTime('2026-11-28T10:31:05Z')).toBe('2026-11-28 18:31');
      expect(formatDateTime('2026-11-28T18:31:05+08:00')).toBe('2026-11-28 18:31');
      expect(formatDateTime('2026-11-28T16:30:00Z', { withZone: true })).toBe(
        '2026-11-29 00:30 (UTC+8)',
      );
      expect(formatTime('2026-11-22T08:05:09.123Z')).toBe('2026-11-22 16:05:09');
      expect(formatDate('2026-11-28T16:30:00Z')).toBe('2026-11-29');
      expect(formatDate('2026-11-28')).toBe('2026-11-28');
    });

    it(`reads and writes a datetime-local field on the Shanghai clock in a browser on ${zone}`, () => {
      restoreZone = setBrowserTimeZone(zone);
      expect(fromShanghaiInput('2026-11-25T12:00:00.5')).toBe('2026-11-25T04:00:00.500Z');
      expect(fromShanghaiInput('2026-11-25T06:00')).toBe('2026-11-24T22:00:00.000Z');
      expect(toShanghaiInput('2026-11-24T22:00:00.030Z')).toBe('2026-11-25T06:00:00.030');
      expect(fromShanghaiInput(toShanghaiInput('2026-03-08T09:59:59.999Z'))).toBe(
        '2026-03-08T09:59:59.999Z',
      );
    });
  }

  it('keeps a time without an offset as it reads (already the Shanghai clock)', () => {
    restoreZone = setBrowserTimeZone('America/Los_Angeles');
    expect(formatDateTime('2026-11-28 18:31:00')).toBe('2026-11-28 18:31');
    expect(formatTime('2026-11-28T18:31:07')).toBe('2026-11-28 18:31:07');
  });

  it('leaves empty and unreadable values alone', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime('soon')).toBe('soon');
    expect(fromShanghaiInput('')).toBe('');
    expect(fromShanghaiInput('2026-02-30T10:00')).toBe('');
    expect(toShanghaiInput('nope')).toBe('');
  });
});
