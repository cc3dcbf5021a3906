import { usePermission } from '@/lib/permissions';
import { isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';

/** Whether the signed-in user has the upload center (the same rule as the header icons). */
export function useUploadEnabled(): boolean {
  const role = useSessionStore((s) => s.role);
  const token = useSessionStore((s) => s.token);
  const staffMay = usePermission('declarations:management');
  return !!token && (isCustomer(role) || staffMay);
}
