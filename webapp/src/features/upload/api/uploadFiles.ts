// POST /api/v1/upload (multipart): the files with their type, form and template; answers
// the file ids. XMLHttpRequest, for the upload progress.
import { apiUrl, authHeaders, handleEnvelope } from '@/lib/request';

export interface UploadInput {
  files: File[];
  declarationType: string;
  isRowData: boolean;
  isFixed: boolean;
  mappingSchemeId?: string;
  customerId?: string;
}

export function uploadFiles(
  input: UploadInput,
  onProgress?: (percent: number) => void,
): Promise<string[]> {
  const form = new FormData();
  for (const f of input.files) form.append('files', f, f.name);
  form.append('declarationType', input.declarationType);
  form.append('isRowData', String(input.isRowData));
  form.append('isFixed', String(input.isFixed));
  if (input.mappingSchemeId) form.append('mappingSchemeId', input.mappingSchemeId);
  if (input.customerId) form.append('customerId', input.customerId);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('/api/v1/upload'));
    xhr.withCredentials = true;
    for (const [k, v] of Object.entries(authHeaders())) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      try {
        resolve(handleEnvelope<string[]>(xhr.status, body).data);
      } catch (e) {
        reject(e);
      }
    };
    xhr.onerror = () => {
      try {
        handleEnvelope(0, null);
      } catch (e) {
        reject(e);
      }
    };
    xhr.send(form);
  });
}
