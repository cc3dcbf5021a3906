import { downloadFile } from '@/lib/download';

/** GET /api/v1/declarations/{id}/customs-messages/{copNo}: the message as written. */
export function downloadCustomsMessage(id: string, copNo: string): Promise<string> {
  return downloadFile(
    `/api/v1/declarations/${encodeURIComponent(id)}/customs-messages/${encodeURIComponent(copNo)}`,
    { method: 'GET', type: copNo, extension: '.xml', serverName: true, successMessage: false },
  );
}
