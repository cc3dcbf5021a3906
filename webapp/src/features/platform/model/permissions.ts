// The permission codes (generated from the server's list), grouped for the role editor, and
// the roles a user may grant (user-roles:grant:X).
import { PERMISSIONS, type PermissionCode } from '@/lib/permissions.generated';
import type { PermissionEntry, RoleRecord } from '@/shared/platform/api/types';

const CODES: readonly PermissionCode[] = PERMISSIONS.map((p) => p.code);

const isRouteTag = (code: string) => code.endsWith(':management');
const isGrant = (code: string) => code.startsWith('user-roles:grant:');

/** The menu (route) tags: one `<area>:management` code per guarded area. */
export const ROUTE_TAGS: readonly PermissionCode[] = CODES.filter(isRouteTag);

/** The button codes: every other code but the role grants. */
export const BUTTON_CODES: readonly PermissionCode[] = CODES.filter(
  (c) => !isRouteTag(c) && !isGrant(c),
);

/** The role grants (`user-roles:grant:<ROLE>`). */
export const GRANT_CODES: readonly PermissionCode[] = CODES.filter(isGrant);

export const ALL_CODES: readonly string[] = [...ROUTE_TAGS, ...BUTTON_CODES, ...GRANT_CODES];

/** The i18n key of a code (i18next reads ':' as the namespace separator). */
export const permKey = (code: string): string => code.replaceAll(':', '_');

export type PermissionGroup = 'route' | 'button' | 'grant';

export function permissionGroup(code: string): PermissionGroup {
  if ((ROUTE_TAGS as readonly string[]).includes(code)) return 'route';
  if (isGrant(code)) return 'grant';
  return 'button';
}

/**
 * Every known code plus any the server reported, grouped (route tags, buttons, grants), in
 * the matrix order; unknown codes go last in their group, alphabetically.
 */
export function groupPermissions(extra: readonly string[] = []): Record<PermissionGroup, string[]> {
  const groups: Record<PermissionGroup, string[]> = { route: [], button: [], grant: [] };
  const seen = new Set<string>();
  const unknown = [...new Set(extra)].filter((c) => !ALL_CODES.includes(c)).sort();
  for (const code of [...ALL_CODES, ...unknown]) {
    if (seen.has(code)) continue;
    seen.add(code);
    groups[permissionGroup(code)].push(code);
  }
  return groups;
}

/** Server descriptions by code (from /api/v1/roles and /api/v1/user-permissions). */
export function descriptionsOf(
  ...lists: readonly (readonly PermissionEntry[] | undefined)[]
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const list of lists)
    for (const p of list ?? [])
      if (p.permissionDescription && !out[p.permissionCode])
        out[p.permissionCode] = p.permissionDescription;
  return out;
}

export const sortRoles = (roles: readonly RoleRecord[]): RoleRecord[] =>
  [...roles].sort((a, b) => a.sortNo - b.sortNo || a.roleCode.localeCompare(b.roleCode));

/** The roles whose grant code the user holds, in the matrix order. */
export function grantableRoles(held: readonly string[]): string[] {
  return GRANT_CODES.filter((c) => held.includes(c)).map((c) =>
    c.slice('user-roles:grant:'.length),
  );
}

/** Staff roles offered on staff screens (staff never hold CUSTOMER). */
export const STAFF_ROLE_CODES = ['SUPER_ADMIN', 'ADMIN', 'OPERATOR', 'COMPLIANCE'] as const;

/**
 * The checkbox state of the role dialog: a role can be toggled only when the user may
 * grant it; the others keep the target's current value.
 */
export function roleChoices(current: readonly string[], held: readonly string[]) {
  const grantable = grantableRoles(held);
  return STAFF_ROLE_CODES.map((role) => ({
    role,
    checked: current.includes(role),
    disabled: !grantable.includes(role),
  }));
}

/** Whether two code lists hold the same codes. */
export function sameCodes(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  const sb = new Set(b);
  return sa.size === sb.size && [...sa].every((c) => sb.has(c));
}

/** The role codes of a staff record's roleList ({roleCode, sortNo} entries or plain codes). */
export function roleCodesOf(
  list: readonly ({ roleCode: string; sortNo?: number } | string)[] | null | undefined,
): string[] {
  return (list ?? [])
    .map((r) => (typeof r === 'string' ? r : r?.roleCode))
    .filter((c): c is string => typeof c === 'string' && c.length > 0);
}
