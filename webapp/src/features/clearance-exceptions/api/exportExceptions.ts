import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import type { ExceptionExportForm } from '../model/exportForm';

const EXTENSIONS: Record<string, string> = { '01': '.xlsx', '02': '.xml', '03': '.zip' };

/**
 * POST /api/v1/clearance/batch-export (spec 7): the file is saved under the name the server
 * gives (date and time); errors reject with their message, not toasted (the dialog shows
 * them with a warning icon).
 */
export function exportExceptions(form: ExceptionExportForm): Promise<string> {
  return downloadFile('/api/v1/clearance/batch-export', {
    method: 'POST',
    body: form,
    serverName: true,
    type: 'exceptions',
    extension: EXTENSIONS[form.exportFormat] ?? '.zip',
    showError: false,
  });
}

export function useExportExceptions() {
  return useMutation({ mutationFn: exportExceptions });
}
