// Every YYYYMMDD the web app sends is the Asia/Shanghai day, whatever the browser's zone.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setBrowserTimeZone } from '@/test/timeZone';
import { isoToYmd, shanghaiTodayIso, shanghaiYmd, ymdToIso } from './dates';

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
