// Who may export what: the same rules the server's export routes apply, so a button shows
// only where the export would be accepted (no dialog filled in for a 403).
//
// - declaration report (POST /api/v1/declarations/batch-export): `declarations:export` (by
//   default ADMIN and SUPER_ADMIN);
// - clearance exception export (POST /api/v1/clearance/batch-export): ADMIN or SUPER_ADMIN
//   holding `clearance:management`;
// - audit log export (POST /api/v1/audit/exports): `audit:export`.
import { useShallow } from 'zustand/react/shallow';
import { hasPermission, type PermissionCode } from './permissions';
import { isAdmin, type Role } from './roles';
import { useSessionStore } from './session';

export type ExportKind = 'declarations' | 'exceptions' | 'auditLog';

const CLEARANCE: PermissionCode = 'clearance:management';
const DECLARATIONS_EXPORT: PermissionCode = 'declarations:export';
const AUDIT_EXPORT: PermissionCode = 'audit:export';

export function canExport(
  kind: ExportKind,
  role: Role | null | undefined,
  permissions: readonly string[],
): boolean {
  switch (kind) {
    case 'declarations':
      return hasPermission(permissions, DECLARATIONS_EXPORT);
    case 'exceptions':
      return isAdmin(role) && hasPermission(permissions, CLEARANCE);
    case 'auditLog':
      return hasPermission(permissions, AUDIT_EXPORT);
  }
}

/** Whether the signed-in user may run this export. */
export function useCanExport(kind: ExportKind): boolean {
  const { role, permissions } = useSessionStore(
    useShallow((s) => ({ role: s.role, permissions: s.permissions })),
  );
  return canExport(kind, role, permissions);
}
