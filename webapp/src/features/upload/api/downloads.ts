// GET /api/v1/upload/download/desc?id= (the error file) and GET /api/v1/upload/template.
import { downloadFile } from '@/lib/download';

export function downloadErrorFile(id: string): Promise<string> {
  return downloadFile('/api/v1/upload/download/desc', {
    method: 'GET',
    params: { id },
    type: 'upload-errors',
    extension: '.xlsx',
  });
}

/** `short`: only the fields the class requires (the full one has them first). */
export function downloadTemplate(
  declarationType: string,
  isRowData: boolean,
  short = false,
): Promise<string> {
  return downloadFile('/api/v1/upload/template', {
    method: 'GET',
    params: { declarationType, isRowData, short },
    type: `template-${declarationType}`,
    extension: '.xlsx',
  });
}
