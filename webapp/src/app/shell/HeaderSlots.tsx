// The header's upload pieces: the batch-upload button and the upload-history icon with its
// unread badge (max 9 shown, hidden at 0), for whoever may create declarations (customers,
// and staff holding declarations:management).
import { UploadCenter } from '@/features/upload/components/UploadCenter';
import { useUploadEnabled } from './useUploadEnabled';

/** The icons show from `sm` up; on a phone the user menu opens the same dialogs. */
export function UploadHistorySlot() {
  const enabled = useUploadEnabled();
  return <UploadCenter enabled={enabled} iconsVisibleFrom="sm" />;
}
