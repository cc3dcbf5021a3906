import { act, renderHook } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { shanghaiTodayIso } from '@/lib/dates';
import { useExportRange } from './useExportRange';

function setup(fromDate = '', toDate = '') {
  return renderHook(() => {
    const [draft, setDraft] = useState({ fromDate, toDate, other: 'kept' });
    return { draft, range: useExportRange(draft, setDraft) };
  });
}

describe('useExportRange', () => {
  it('keeps a valid range as YYYYMMDD and leaves the rest of the draft alone', async () => {
    await i18n.changeLanguage('en');
    const { result } = setup();
    act(() => result.current.range.pickerProps.onChange(['2026-03-01', '2026-03-31']));
    expect(result.current.draft).toEqual({
      fromDate: '20260301',
      toDate: '20260331',
      other: 'kept',
    });
    expect(result.current.range.error).toBeNull();
    expect(result.current.range.pickerProps.value).toEqual(['2026-03-01', '2026-03-31']);
  });

  it('empties a range longer than a year, with the rule in the message', async () => {
    await i18n.changeLanguage('en');
    const { result } = setup();
    act(() => result.current.range.pickerProps.onChange(['2025-01-01', '2026-03-01']));
    expect(result.current.draft.fromDate).toBe('');
    expect(result.current.draft.toDate).toBe('');
    expect(result.current.range.error).toBe('The time span cannot exceed one year');
  });

  it('after a first pick, disables days more than 180 days away and any future day', () => {
    const { result } = setup();
    act(() => result.current.range.pickerProps.onChange(['2026-06-01', null]));
    expect(result.current.draft.fromDate).toBe('20260601');
    const { excludeDate } = result.current.range.pickerProps;
    expect(excludeDate('2026-06-30')).toBe(false);
    expect(excludeDate('2025-11-01')).toBe(true);
    const tomorrow = new Date(Date.parse(`${shanghaiTodayIso()}T00:00:00Z`) + 86_400_000)
      .toISOString()
      .slice(0, 10);
    expect(excludeDate(tomorrow)).toBe(true);
  });

  it('refuses to send without a range', async () => {
    await i18n.changeLanguage('en');
    const { result } = setup();
    let passed = true;
    act(() => {
      passed = result.current.range.check();
    });
    expect(passed).toBe(false);
    expect(result.current.range.error).toBe('Please choose a custom date range');
  });

  it('passes a valid range and clears an earlier message', async () => {
    await i18n.changeLanguage('en');
    const { result } = setup('20260301', '20260310');
    act(() => result.current.range.setError('earlier'));
    let passed = false;
    act(() => {
      passed = result.current.range.check();
    });
    expect(passed).toBe(true);
    expect(result.current.range.error).toBeNull();
  });
});
