// The exception export form (spec 3 "Exception export form", 5 "Export", 9): defaults and
// the body of POST /api/v1/clearance/batch-export ("all" values become empty).

export const EXPORT_FORMATS = ['01', '02', '03'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** 1 creation time ascending, 2 descending. */
export const EXPORT_SORTS = ['1', '2'] as const;

export interface ExceptionExportDraft {
  /** '' all, or OB ... ID. */
  declarationType: string;
  port: string;
  /** -1 both, 0 import, 1 export. */
  shipmentType: string;
  /** -1 all. */
  status: string;
  fromDate: string;
  toDate: string;
  sort: string;
  exportFormat: ExportFormat;
}

export type ExceptionExportForm = ExceptionExportDraft;

export function initialExceptionExport(
  initial: Partial<ExceptionExportDraft> = {},
): ExceptionExportDraft {
  return {
    declarationType: initial.declarationType ?? '',
    port: initial.port ?? '',
    shipmentType: initial.shipmentType ?? '-1',
    status: initial.status || '-1',
    fromDate: initial.fromDate ?? '',
    toDate: initial.toDate ?? '',
    sort: initial.sort ?? '2',
    exportFormat: initial.exportFormat ?? '01',
  };
}

export function toExceptionExportForm(draft: ExceptionExportDraft): ExceptionExportForm {
  const blank = (v: string) => (!v || v === '-1' ? '' : v.trim());
  return {
    declarationType: blank(draft.declarationType),
    port: blank(draft.port),
    shipmentType: blank(draft.shipmentType),
    status: blank(draft.status),
    fromDate: draft.fromDate,
    toDate: draft.toDate,
    sort: draft.sort || '2',
    exportFormat: draft.exportFormat,
  };
}
