// The navigation guard of spec 2.2 as a pure function: given where the user wants to go and
// what we know about them, say whether to allow, redirect, or first load their permissions.
import { permissionFallback } from '@/lib/permissions';
import { roleAllowed, type Role } from '@/lib/roles';
import { roleHomePath, staffPathForCustomerLink } from '../routes/landing';

export const LOGIN_C = '/login-c';
export const LOGIN_B = '/login-b';
export const BIND_PATH = '/customers-center/bind';
export const FORBIDDEN_PATH = '/403';

export interface GuardRoute {
  public?: boolean;
  /** Public only with a temporary token (/pass-reset); otherwise protected. */
  needsTempToken?: boolean;
  roles?: readonly Role[];
  /** Tags of every level of the route, outermost first. */
  permissionTags?: readonly string[];
}

export interface NavigationInput {
  pathname: string;
  /** The original query, with or without its leading "?". */
  search: string;
  route: GuardRoute;
  token: string | null;
  tempToken?: string | null;
  role: Role | null;
  /** Permissions (staff) or the profile (customer) were fetched on this page load. */
  loaded: boolean;
  permissions: readonly string[];
  isLocked: boolean;
  /**
   * The first page this user may open (routes/landing.ts): where a home page they may not
   * open sends them instead of /403. Absent: no such page is known.
   */
  landing?: string | null;
}

export type NavigationDecision =
  { kind: 'allow' } | { kind: 'redirect'; to: string } | { kind: 'load' };

/** `/login-x?redirect=<wanted path + original query>`. */
export function loginRedirect(loginPath: string, pathname: string, search: string): string {
  const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
  return `${loginPath}?redirect=${encodeURIComponent(pathname + query)}`;
}

export function decideNavigation(input: NavigationInput): NavigationDecision {
  const { pathname, search, route, token, role } = input;

  // With a token, the login pages send you home.
  if (token && (pathname === LOGIN_C || pathname === LOGIN_B)) {
    return { kind: 'redirect', to: '/' };
  }

  const isPublic = Boolean(route.public) && (!route.needsTempToken || Boolean(input.tempToken));
  if (isPublic) return { kind: 'allow' };

  if (!token) {
    // No known role or a customer: the customer login; anyone else: the staff login.
    const login = role === null || role === 'CUSTOMER' ? LOGIN_C : LOGIN_B;
    return { kind: 'redirect', to: loginRedirect(login, pathname, search) };
  }

  if (!input.loaded || role === null) return { kind: 'load' };

  if (role === 'CUSTOMER' && input.isLocked && pathname !== BIND_PATH) {
    return { kind: 'redirect', to: BIND_PATH };
  }

  const missingTag = (route.permissionTags ?? []).find((tag) => !input.permissions.includes(tag));
  if (roleAllowed(role, route.roles) && missingTag === undefined) return { kind: 'allow' };

  // Staff opening a customer's link: the staff page of the same record, query kept.
  const staffPath = staffPathForCustomerLink(role, pathname);
  if (staffPath) {
    const query = search && search !== '?' ? (search.startsWith('?') ? search : `?${search}`) : '';
    return { kind: 'redirect', to: staffPath + query };
  }
  // Their home page, which this role may not open (the reviewer and /admin-welcome): their
  // first page. Another role's home page stays refused.
  if (pathname === roleHomePath(role) && input.landing && input.landing !== pathname) {
    return { kind: 'redirect', to: input.landing };
  }
  if (missingTag !== undefined && roleAllowed(role, route.roles)) {
    return { kind: 'redirect', to: permissionFallback(missingTag) };
  }
  return { kind: 'redirect', to: FORBIDDEN_PATH };
}
