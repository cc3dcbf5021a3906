// The upload flow's rules (spec "Upload flow", constants of section 9), pure.
import type { UploadDetail, UploadItem, UploadRecord } from './types';

export const POLL_INTERVAL_MS = 3000;
export const BANNER_DELAY_MS = 5000;
export const UPLOAD_NOTICE_MS = 2000;
export const BADGE_CAP = 9;
export const HISTORY_PAGE_SIZE = 10;
export const DIALOG_PAGE_SIZE = 100000;

/**
 * Polling goes on while any record is still processing ('3') or none has been projected
 * yet. (The legacy client's literal rule would poll forever when every file failed; see
 * docs/uploads.md.)
 */
export function keepPolling(records: readonly UploadRecord[], expected: number): boolean {
  if (records.length < expected) return true;
  return records.some((r) => r.status === '3');
}

/** The badge text: hidden at 0, capped at 9 ("9+"). */
export function badgeLabel(count: number): string | null {
  if (!count || count <= 0) return null;
  return count > BADGE_CAP ? `${BADGE_CAP}+` : String(count);
}

export interface Summary {
  total: number;
  added: number;
  /** Declarations made (drafts): rows with one tracking number make one. */
  drafts: number;
  repeat: number;
  abnormal: number;
  /** Records that failed as a whole ('0'): the exception count. */
  failed: number;
  /** rows or files. */
  unit: 'rows' | 'files';
}

/** The banner's counts over the polled records. */
export function summarize(records: readonly UploadRecord[]): Summary {
  const sum = (f: (r: UploadRecord) => number) => records.reduce((n, r) => n + f(r), 0);
  return {
    total: sum((r) => r.total ?? 0),
    added: sum((r) => r.success),
    drafts: sum((r) => r.ticketSuccess ?? 0),
    repeat: sum((r) => r.repeat),
    abnormal: sum((r) => r.abnormal),
    failed: records.filter((r) => r.status === '0').length,
    unit: records[0] && !records[0].isRowData ? 'files' : 'rows',
  };
}

/** Progress of processing in percent (rows or files done / total). */
export function progress(records: readonly UploadRecord[]): number {
  const total = records.reduce((n, r) => n + (r.total ?? 0), 0);
  if (!total) return 0;
  const done = records.reduce((n, r) => n + r.done, 0);
  return Math.min(100, Math.round((done / total) * 100));
}

/** The details link is disabled with no abnormal or repeated item, or no log detail. */
export function detailsDisabled(r: UploadRecord): boolean {
  return (r.abnormal === 0 && r.repeat === 0) || !r.logDetail;
}

/** The rows of a detail, whichever list the form uses. */
export function detailItems(d: UploadDetail | undefined): UploadItem[] {
  if (!d) return [];
  return d.logDetailList ?? d.logFileDetailList ?? [];
}

/** `logDetail` parsed; empty or malformed becomes null. */
export function parseLogDetail(text: string | null): Record<string, unknown> | null {
  if (!text) return null;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
