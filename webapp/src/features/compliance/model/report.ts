// The log as a person reads it: a CSV (opens in Excel, Chinese intact) of the events of the
// current filter, newest first, with each event's name in the reader's language and its
// fields as `key: value` text. Beside the signed export, which is for verifying, not reading.
import { formatTime } from '@/lib/dates';
import type { AuditEvent } from '../api/types';
import { fieldRows, isEmptyRow } from './fields';

/** The most events one CSV holds (pages of 500). */
export const CSV_MAX_EVENTS = 5000;

const cell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The event's non-empty fields as `path: value` lines. */
export function payloadText(payload: unknown): string {
  return fieldRows(payload)
    .filter((r) => r.value !== null && !isEmptyRow(r))
    .map((r) => (r.path ? `${r.path}: ${r.value}` : (r.value ?? '')))
    .join('\n');
}

export function logCsv(
  events: readonly AuditEvent[],
  headers: readonly string[],
  name: (type: string) => string,
  role: (role: string) => string,
): string {
  const lines = [headers.map(cell).join(',')];
  for (const e of events) {
    const m = e.metadata ?? {};
    lines.push(
      [
        String(e.position),
        formatTime(e.recordedAt),
        m.actorName ?? '',
        m.actorRole ? role(m.actorRole) : '',
        name(e.eventType),
        e.eventType,
        `${e.streamType} · v${e.streamVersion}`,
        e.streamId,
        payloadText(e.payload),
      ]
        .map(cell)
        .join(','),
    );
  }
  // A byte-order mark: Excel then reads the file as UTF-8.
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
