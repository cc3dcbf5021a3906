export const ROLES = ['SUPER_ADMIN', 'ADMIN', 'OPERATOR', 'CUSTOMER', 'COMPLIANCE'] as const;
export type Role = (typeof ROLES)[number];

export const STAFF_ROLES: readonly Role[] = ['OPERATOR', 'ADMIN', 'SUPER_ADMIN', 'COMPLIANCE'];

export function normalizeRole(value: unknown): Role | null {
  if (typeof value !== 'string') return null;
  const upper = value
    .trim()
    .toUpperCase()
    .replace(/^ROLE_/, '');
  return (ROLES as readonly string[]).includes(upper) ? (upper as Role) : null;
}

export const isCustomer = (role: Role | null | undefined): boolean => role === 'CUSTOMER';
export const isStaff = (role: Role | null | undefined): boolean =>
  role != null && STAFF_ROLES.includes(role);
export const isAdmin = (role: Role | null | undefined): boolean =>
  role === 'ADMIN' || role === 'SUPER_ADMIN';

/**
 * Whether a user of `role` may open something restricted to `allowed`.
 * No list means everyone; SUPER_ADMIN sees all that ADMIN sees.
 */
export function roleAllowed(role: Role | null | undefined, allowed?: readonly Role[]): boolean {
  if (!allowed || allowed.length === 0) return true;
  if (!role) return false;
  if (allowed.includes(role)) return true;
  return role === 'SUPER_ADMIN' && allowed.includes('ADMIN');
}
