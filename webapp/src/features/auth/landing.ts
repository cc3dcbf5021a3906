import { isCustomer, isStaff, type Role } from '@/lib/roles';

/** Where /auth-redirect sends a user (spec 2.1/2.4). */
export function landingPath(role: Role | null): string {
  if (isCustomer(role)) return '/customer-welcome';
  if (isStaff(role)) return '/admin-welcome';
  return '/login-c';
}

/** Only same-site paths are followed after login (no open redirect). */
export function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') ? value : '/';
}
