// The admin export-report form (spec 3 "Export form", 5 "Export", 9): defaults, and the
// placeholders turned into empty values on submit.
import type { ExportForm } from '@/shared/declarations/api/exportDeclarations';

/** Placeholder values of the selects: "all customers", "all ports", "all SLIC". */
export const ALL = '__all__';

export interface ExportDraft {
  /** Class letter B/C/D (default D). */
  declarationType: string;
  username: string;
  port: string;
  slic: string;
  /** -1 both, 0 import, 1 export. */
  shipmentType: string;
  /** -1 all. */
  status: string;
  /** YYYYMMDD. */
  fromDate: string;
  toDate: string;
  /** '' default, 1 port, 2 customer account, 3 pickup ascending, 4 descending. */
  sort: string;
}

export interface ExportInitial {
  /** A class letter or a type code (OB ... ID). */
  declarationType?: string;
  status?: string;
  username?: string;
  port?: string;
  fromDate?: string;
  toDate?: string;
}

export function initialExportDraft(initial: ExportInitial = {}): ExportDraft {
  const type = (initial.declarationType ?? 'D').toUpperCase();
  const cls = type.slice(-1);
  const shipmentType = type.length === 2 ? (type.startsWith('I') ? '0' : '1') : '-1';
  return {
    declarationType: ['B', 'C', 'D'].includes(cls) ? cls : 'D',
    username: initial.username || ALL,
    port: initial.port || ALL,
    slic: ALL,
    shipmentType,
    status: initial.status || '-1',
    fromDate: initial.fromDate ?? '',
    toDate: initial.toDate ?? '',
    sort: '',
  };
}

const blank = (v: string | null | undefined, placeholder: string) =>
  !v || v === placeholder ? '' : v.trim();

/** The body of POST /api/v1/declarations/batch-export: placeholders and -1 become ''. */
export function toExportForm(draft: ExportDraft): ExportForm {
  return {
    declarationType: draft.declarationType || 'D',
    username: blank(draft.username, ALL),
    port: blank(draft.port, ALL),
    slic: blank(draft.slic, ALL),
    shipmentType: blank(draft.shipmentType, '-1'),
    status: blank(draft.status, '-1'),
    fromDate: draft.fromDate,
    toDate: draft.toDate,
    sort: draft.sort || '',
  };
}
