import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';

/** The export form of spec 3 as the endpoint takes it (placeholders already emptied). */
export interface ExportForm {
  declarationType: string;
  username: string;
  port: string;
  slic: string;
  shipmentType: string;
  status: string;
  fromDate: string;
  toDate: string;
  sort: string;
}

/**
 * POST /api/v1/declarations/batch-export through the shared download helper: the xlsx is
 * saved as `<type>-MMdd-HHmm.xlsx`; an error answer rejects with its message (not toasted:
 * the caller shows it).
 */
export function exportDeclarations(form: ExportForm): Promise<string> {
  return downloadFile('/api/v1/declarations/batch-export', {
    method: 'POST',
    body: form,
    type: form.declarationType || 'D',
    extension: '.xlsx',
    showError: false,
  });
}

export function useExportDeclarations() {
  return useMutation({ mutationFn: exportDeclarations });
}
