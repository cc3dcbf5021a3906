// Wire shapes of the platform management endpoints (docs/identity.md, the ports and audit
// contracts), named from the server's document.
import type { Wire } from '@/shared/api/wire';

/** A staff member of the directory. */
export type StaffRecord = Wire<'StaffRecord'>;

/** A permission code with its description (also built by the screens, so both optional). */
export interface PermissionEntry {
  permissionCode: string;
  permissionDescription?: string;
  type?: string;
}

export interface RoleRecord {
  roleCode: string;
  sortNo: number;
  roleDescription: string;
  permissions: PermissionEntry[];
  version: number;
}

/** A facility (SLIC) of a port. */
export type SlicInfo = Wire<'SlicInfo'>;

/** A port with its facilities; `version` is sent as `If-Match`. */
export type PortRecord = Wire<'PortRecord'>;

export interface AuditChange {
  field: string;
  from: unknown;
  to: unknown;
}

/** One entry of the administrative audit log. */
export type AuditRecord = Wire<'AuditRecord'>;
