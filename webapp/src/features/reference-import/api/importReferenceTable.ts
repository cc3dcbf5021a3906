// POST /api/v1/admin/reference/{table}/import (ADMIN, SUPER_ADMIN): a new edition of a
// reference table as CSV. Without `confirm` the server only reads it (rows, columns, the
// first rows, what cannot be read by line and column); with it, the file is imported.
import { useMutation } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { Wire } from '@/shared/api/wire';

export type ImportPreview = Wire<'ImportPreview'>;

export interface ImportInput {
  table: string;
  file: File;
  /** `YYYY-MM-DD`. */
  effectiveFrom: string;
  confirm: boolean;
}

/** Errors are not toasted: the page shows them beside the form. */
export function importReferenceTable(input: ImportInput): Promise<ImportPreview> {
  const formData = new FormData();
  formData.append('effectiveFrom', input.effectiveFrom);
  if (input.confirm) formData.append('confirm', 'true');
  formData.append('file', input.file);
  return request<ImportPreview>(
    `/api/v1/admin/reference/${encodeURIComponent(input.table)}/import`,
    { method: 'POST', formData, hideErrorMessage: true, timeout: 120_000 },
  );
}

export const useImportReferenceTable = () => useMutation({ mutationFn: importReferenceTable });
