// The header's upload pieces: the batch-upload button and the upload-history icon with its
// unread badge (max 9 shown, hidden at 0), for whoever may create declarations (customers,
// and staff holding declarations:management).
import { UploadCenter } from '@/features/upload/components/UploadCenter';
import { usePermission } from '@/lib/permissions';
import { isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';

export function UploadHistorySlot() {
  const role = useSessionStore((s) => s.role);
  const token = useSessionStore((s) => s.token);
  const staffMay = usePermission('declarations:management');
  const enabled = !!token && (isCustomer(role) || staffMay);
  return <UploadCenter enabled={enabled} />;
}
