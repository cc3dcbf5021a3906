import { describe, expect, it } from 'vitest';
import {
  compactParams,
  endOfMillisecond,
  fieldRows,
  fromLocalInput,
  leafText,
  toLocalInput,
} from '../model/fields';

describe('fieldRows', () => {
  it('lists leaves with their depth and headings for nested objects and arrays', () => {
    const rows = fieldRows({ a: 1, b: { c: 'x', d: [true, { e: null }] }, f: {} });
    expect(rows.map((r) => [r.path, r.depth, r.value])).toEqual([
      ['a', 0, '1'],
      ['b', 0, null],
      ['b.c', 1, 'x'],
      ['b.d', 1, null],
      ['b.d[0]', 2, 'true'],
      ['b.d[1]', 2, null],
      ['b.d[1].e', 3, '—'],
      ['f', 0, '{}'],
    ]);
  });

  it('shows a bare value as one row and nothing for undefined', () => {
    expect(fieldRows('erased')).toEqual([{ label: '', value: 'erased', depth: 0, path: '' }]);
    expect(fieldRows(undefined)).toEqual([]);
    expect(leafText([])).toBe('[]');
  });
});

describe('times and params', () => {
  it('round-trips a picker value and widens a millisecond to its last microsecond', () => {
    const iso = fromLocalInput('2026-11-25T12:00:00.500');
    expect(iso).toMatch(/\.500Z$/);
    expect(toLocalInput(iso)).toBe('2026-11-25T12:00:00.500');
    expect(endOfMillisecond(iso)).toMatch(/\.500999Z$/);
    expect(endOfMillisecond('')).toBe('');
    expect(fromLocalInput('  ')).toBe('');
    // A browser gives `.33` for 330 ms and `.5` for 500 ms.
    expect(fromLocalInput('2026-11-25T12:00:00.33')).toBe(
      fromLocalInput('2026-11-25T12:00:00.330'),
    );
    expect(fromLocalInput('2026-11-25T12:00:00.5')).toBe(iso);
    expect(fromLocalInput('2026-11-25T12:00:00.03')).toMatch(/\.030Z$/);
    expect(fromLocalInput('2026-11-25T12:00:00')).toMatch(/:00\.000Z$/);
    expect(fromLocalInput('not a time')).toBe('');
  });

  it('drops empty parameters and trims the rest', () => {
    expect(compactParams({ a: ' x ', b: '', c: '  ' })).toEqual({ a: 'x' });
  });
});

describe('the readable CSV of the log', () => {
  it('names events and roles, quotes what needs it and lists only the filled fields', async () => {
    const { logCsv } = await import('../model/report');
    const csv = logCsv(
      [
        {
          position: 7,
          streamType: 'declaration',
          streamId: 's-1',
          streamVersion: 2,
          eventId: 'e',
          eventType: 'DeclarationSubmitted',
          schemaVersion: 1,
          recordedAt: '2026-11-29T02:00:00Z',
          payload: { trackingNumber: '1Z1', note: 'a, "b"', empty: null, lines: [] },
          metadata: { actorName: 'acme', actorRole: 'CUSTOMER' },
        },
      ] as never,
      ['Position', 'Time', 'Actor', 'Role', 'Event', 'Type', 'Stream', 'Id', 'Fields'],
      (type) => (type === 'DeclarationSubmitted' ? 'Declaration submitted' : type),
      (role) => (role === 'CUSTOMER' ? 'Customer' : role),
    );
    expect(csv.startsWith('\uFEFFPosition,Time,')).toBe(true);
    const row = csv.split('\r\n')[1];
    expect(row).toContain('7,2026-11-29 10:00');
    expect(row).toContain(',acme,Customer,Declaration submitted,DeclarationSubmitted,');
    expect(csv).toContain('"trackingNumber: 1Z1\nnote: a, ""b"""');
    expect(csv).not.toContain('empty');
  });
});
