import { describe, expect, it } from 'vitest';
import {
  badgeLabel,
  detailsDisabled,
  keepPolling,
  parseLogDetail,
  progress,
  summarize,
} from './polling';
import type { UploadRecord } from './types';

const rec = (over: Partial<UploadRecord>): UploadRecord => ({
  id: 'a',
  fileOriginName: 'f.xlsx',
  createTime: '2026-11-25T08:00:00+08:00',
  type: 'OC',
  isRowData: true,
  isFixed: true,
  ticketSuccess: 0,
  success: 0,
  repeat: 0,
  abnormal: 0,
  confirm: false,
  status: '3',
  logDetail: null,
  total: null,
  done: 0,
  ...over,
});

describe('upload polling', () => {
  it('polls while a record is processing or not yet listed', () => {
    expect(keepPolling([], 1)).toBe(true);
    expect(keepPolling([rec({ status: '3' })], 1)).toBe(true);
    expect(keepPolling([rec({ status: '2' }), rec({ status: '3' })], 2)).toBe(true);
  });

  it('stops when every record is finished, failures included', () => {
    expect(keepPolling([rec({ status: '0' })], 1)).toBe(false);
    expect(keepPolling([rec({ status: '1' }), rec({ status: '2' })], 2)).toBe(false);
  });

  it('caps the badge at 9 and hides it at 0', () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(1)).toBe('1');
    expect(badgeLabel(9)).toBe('9');
    expect(badgeLabel(12)).toBe('9+');
  });

  it('sums the banner counts and the progress', () => {
    const rs = [
      rec({ status: '2', total: 5, done: 5, success: 3, repeat: 1, abnormal: 1 }),
      rec({ status: '0', total: null }),
    ];
    expect(summarize(rs)).toEqual({
      total: 5,
      added: 3,
      drafts: 0,
      repeat: 1,
      abnormal: 1,
      failed: 1,
      unit: 'rows',
    });
    expect(progress([rec({ total: 4, done: 1 })])).toBe(25);
    expect(progress([rec({ total: null })])).toBe(0);
  });

  it('disables details without problems or log detail', () => {
    expect(detailsDisabled(rec({ abnormal: 0, repeat: 0, logDetail: '{}' }))).toBe(true);
    expect(detailsDisabled(rec({ abnormal: 1, logDetail: null }))).toBe(true);
    expect(detailsDisabled(rec({ abnormal: 1, logDetail: '{"abnormal":1}' }))).toBe(false);
    expect(parseLogDetail('')).toBeNull();
    expect(parseLogDetail('nope')).toBeNull();
    expect(parseLogDetail('{"message":"x"}')).toEqual({ message: 'x' });
  });
});
