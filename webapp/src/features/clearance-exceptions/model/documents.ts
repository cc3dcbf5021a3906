// The requested documents of an exception, one slot each: their names in the reader's
// language, and which still have no file.
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import type { ExceptionDocument } from '@/shared/clearance-exceptions/model/types';
import { requestedDocumentFlag } from './form';

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
