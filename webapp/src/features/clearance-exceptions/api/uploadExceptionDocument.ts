import { useCommandMutation } from '@/lib/commandMutation';
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { exceptionKeys, exceptionPath } from '@/shared/clearance-exceptions/api/keys';

export interface UploadInput {
  id: string;
  file: File;
}

/** POST .../{id}/documents (multipart, field `file`): one requested document. */
export function uploadExceptionDocument(input: UploadInput): Promise<CommandAnswer> {
  const body = new FormData();
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
