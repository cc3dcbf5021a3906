// Wire shapes of the platform management endpoints (docs/identity.md, the ports and audit
// contracts).

export interface StaffRecord {
  id: string;
  username: string;
  staffId: string | null;
  staffEmail: string | null;
  staffName: string;
  roleCode: string | null;
  /** The roles by sortNo (older answers: plain codes). */
  roleList: ({ roleCode: string; sortNo?: number } | string)[];
  status: string;
  hasPassword: boolean;
  createTime: string;
  createBy: string | null;
  updateTime: string;
  updateBy: string | null;
  version: number;
}

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

export interface SlicInfo {
  id: string;
  upsFacilityName: string;
  upsFacilitySlic: string;
  createBy?: string | null;
  createTime?: string | null;
  updateBy?: string | null;
  updateTime?: string | null;
  deleted?: boolean | number | null;
}

export interface PortRecord {
  id: string;
  portCode: string;
  portName: string;
  portNameEn?: string | null;
  declarationSlic: string;
  slicInfoList: SlicInfo[];
  createBy?: string | null;
  createTime?: string | null;
  updateBy?: string | null;
  updateTime?: string | null;
  deleted?: boolean | number | null;
  version: number;
}

export interface AuditChange {
  field: string;
  from: unknown;
  to: unknown;
}

export interface AuditRecord {
  position: number;
  time: string;
  actorName: string | null;
  actorRole: string | null;
  subjectType: string;
  subjectId: string;
  subjectLabel: string | null;
  action: string;
  changes: AuditChange[];
  reason: string | null;
}
