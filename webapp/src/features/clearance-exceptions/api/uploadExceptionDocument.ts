import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { exceptionKeys, exceptionPath } from '@/shared/clearance-exceptions/api/keys';

export interface UploadInput {
  id: string;
  file: File;
  /** The requested document the file supplies (its slot); absent for another file. */
  requested?: string;
}

/** POST .../{id}/documents (multipart, parts `requested` and `file`): one document. */
export function uploadExceptionDocument(input: UploadInput): Promise<CommandAnswer> {
  const body = new FormData();
  if (input.requested) body.append('requested', input.requested);
  body.append('file', input.file, input.file.name);
  return request<CommandAnswer>(exceptionPath(input.id, 'documents'), {
    method: 'POST',
    formData: body,
    hideErrorMessage: true,
  });
}

export function useUploadExceptionDocument() {
  return useCommandMutation(uploadExceptionDocument, [exceptionKeys.all]);
}
