// The requested documents of an exception, one slot each: their names in the reader's
// language, and which still have no file.
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import type { ExceptionDocument } from '@/shared/clearance-exceptions/model/types';
import { requestedDocumentFlag } from './form';

/** What an upload may be (the server judges the type from the content). */
export const ACCEPTED_TYPES =
  'application/pdf,image/png,image/jpeg,image/gif,image/webp,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,.pdf,.png,.jpg,.jpeg,.xlsx';

/** The server's upload limit (3 MiB); a larger file is refused before it is sent. */
export const MAX_UPLOAD_BYTES = 3 * 1024 * 1024;

/** A requested document's name in the reader's language (flag names), or its text. */
export function useDocumentName() {
  const { t } = useExcT();
  return (slot: string) => {
    const flag = requestedDocumentFlag(slot);
    return flag ? t(`document.${flag}`) : slot;
  };
}

/** The requested documents (slots) no file has been sent for. */
export function unsuppliedDocuments(
  requested: readonly string[],
  documents: readonly ExceptionDocument[],
): string[] {
  return requested.filter((slot) => !documents.some((d) => d.requested === slot));
}
