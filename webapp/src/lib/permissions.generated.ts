// Generated from PERMISSIONS in api/src/permissions.rs by api/tests/permissions_ts.rs:
// do not edit. After changing the Rust list, run
// `UPDATE_GENERATED=1 cargo test -p api --test permissions_ts` and commit the result.

/** Every permission code the server knows, in its order, with its descriptions. */
export const PERMISSIONS = [
  {
    code: 'declarations:management',
    zh: '报关单管理',
    en: 'Declaration management',
  },
  {
    code: 'clearance:management',
    zh: '清关异常管理',
    en: 'Clearance exception management',
  },
  {
    code: 'customers:management',
    zh: '客户管理',
    en: 'Customer management',
  },
  {
    code: 'staff:management',
    zh: '员工管理',
    en: 'Staff management',
  },
  {
    code: 'roles:management',
    zh: '角色管理',
    en: 'Role management',
  },
  {
    code: 'ports:management',
    zh: '口岸管理',
    en: 'Port management',
  },
  {
    code: 'customers:create',
    zh: '新建客户',
    en: 'Create customers',
  },
  {
    code: 'customers:maintain',
    zh: '维护客户',
    en: 'Maintain customers',
  },
  {
    code: 'customers:delete',
    zh: '删除客户',
    en: 'Delete customers',
  },
  {
    code: 'staff:create',
    zh: '新建员工',
    en: 'Create staff',
  },
  {
    code: 'staff:delete',
    zh: '删除员工',
    en: 'Delete staff',
  },
  {
    code: 'staff:permission:transfer',
    zh: '移交管理权限',
    en: 'Hand over administrative authority',
  },
  {
    code: 'staff:maintain',
    zh: '维护员工',
    en: 'Maintain staff',
  },
  {
    code: 'user-roles:grant:SUPER_ADMIN',
    zh: '授予超级管理员角色',
    en: 'Grant the SUPER_ADMIN role',
  },
  {
    code: 'user-roles:grant:ADMIN',
    zh: '授予管理员角色',
    en: 'Grant the ADMIN role',
  },
  {
    code: 'user-roles:grant:OPERATOR',
    zh: '授予操作员角色',
    en: 'Grant the OPERATOR role',
  },
  {
    code: 'user-roles:grant:CUSTOMER',
    zh: '授予客户角色',
    en: 'Grant the CUSTOMER role',
  },
  {
    code: 'ports:add-slic',
    zh: '新增 SLIC',
    en: 'Add SLIC',
  },
  {
    code: 'user-roles:grant:COMPLIANCE',
    zh: '授予合规审查角色',
    en: 'Grant the COMPLIANCE role',
  },
  {
    code: 'audit:read',
    zh: '查阅审计日志',
    en: 'Read the audit log',
  },
  {
    code: 'audit:export',
    zh: '导出审计日志（含未遮蔽的原始内容）',
    en: 'Export the audit log (raw payloads, unmasked)',
  },
  {
    code: 'personal-data:erase',
    zh: '删除个人数据',
    en: 'Erase a data subject\'s personal data',
  },
  {
    code: 'customs:management',
    zh: '海关通道管理',
    en: 'Customs channel management',
  },
  {
    code: 'declarations:export',
    zh: '导出报关单报表',
    en: 'Export the declaration report',
  },
] as const;

/** A permission code the server knows. */
export type PermissionCode = (typeof PERMISSIONS)[number]['code'];
