import { useMutation } from '@tanstack/react-query';
import { downloadFile } from '@/lib/download';
import { exceptionPath } from '@/shared/clearance-exceptions/api/keys';

export interface DocumentRef {
  exceptionId: string;
  documentId: string;
  fileName: string;
}

/** GET .../{id}/documents/{documentId}: saved under the server's (or the stored) name. */
export function downloadExceptionDocument(ref: DocumentRef): Promise<string> {
  const dot = ref.fileName.lastIndexOf('.');
  return downloadFile(
    exceptionPath(ref.exceptionId, `documents/${encodeURIComponent(ref.documentId)}`),
    {
      method: 'GET',
      serverName: true,
      type: dot > 0 ? ref.fileName.slice(0, dot) : ref.fileName,
      extension: dot > 0 ? ref.fileName.slice(dot) : '',
      successMessage: false,
    },
  );
}

export function useDownloadExceptionDocument() {
  return useMutation({ mutationFn: downloadExceptionDocument });
}
