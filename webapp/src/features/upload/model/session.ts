// The stored upload session keys (spec 3, "Other stored items"): the file name and the list
// of file ids being polled, so that polling resumes after a reload.
import { storage } from '@/lib/storage';

export interface UploadSession {
  fileName: string;
  fileIds: string[];
}

export function saveUploadSession(s: UploadSession): void {
  storage.set('uploadFileName', s.fileName);
  storage.setJson('uploadFileIds', s.fileIds);
}

export function loadUploadSession(): UploadSession | null {
  const ids = storage.getJson<unknown>('uploadFileIds');
  if (!Array.isArray(ids) || ids.length === 0) return null;
  const fileIds = ids.filter((x): x is string => typeof x === 'string');
  if (fileIds.length === 0) return null;
  return { fileName: storage.get('uploadFileName') ?? '', fileIds };
}

export function clearUploadSession(): void {
  storage.remove('uploadFileName');
  storage.remove('uploadFileIds');
}
