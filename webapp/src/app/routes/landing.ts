// Where a signed-in person lands, and where a staff member opening a customer's link goes:
// both from the route table, so no role lands on a page it may not open.
import { roleAllowed, isStaff, type Role } from '@/lib/roles';
import { effectiveRoles, effectiveTags, flattenRoutes } from './flatten';
import type { AppRoute, FlatRoute } from '@/shared/routing/types';

export interface LandingContext {
  role: Role | null;
  permissions: readonly string[];
}

/**
 * The welcome page "/" leads a role to (features/auth/landing.ts); a role that may not
 * open it (the compliance reviewer) is sent to its first page instead.
 */
export function roleHomePath(role: Role | null): string | null {
  if (role === 'CUSTOMER') return '/customer-welcome';
  return isStaff(role) ? '/admin-welcome' : null;
}

function mayOpen(route: FlatRoute, ctx: LandingContext): boolean {
  if (!roleAllowed(ctx.role, effectiveRoles(route.chain))) return false;
  return effectiveTags(route.chain).every((tag) => ctx.permissions.includes(tag));
}

/**
 * The first page the user may open: a home page (an `affix` tab) first, then the menu's
 * pages in menu order. Pages that need a parameter (`:id`), hidden pages and public pages
 * are never a landing. Null when there is none (a role without any permission).
 */
export function firstPermittedPath(
  routes: readonly AppRoute[],
  ctx: LandingContext,
): string | null {
  if (!ctx.role) return null;
  const pages = flattenRoutes(routes).filter(
    (r) =>
      r.route.component &&
      !r.fullPath.includes(':') &&
      !r.chain.some((m) => m.public) &&
      mayOpen(r, ctx),
  );
  const home = pages.find((r) => r.meta.affix);
  if (home) return home.fullPath;
  const listed = pages.find((r) => !r.chain.some((m) => m.hidden));
  return listed?.fullPath ?? null;
}

/** Customer areas and the staff areas showing the same records. */
const CUSTOMER_TO_STAFF: readonly (readonly [string, string])[] = [
  ['/customs-clearance-supply/assist-to-create', '/customers-profile/assist-to-create'],
  ['/customs-clearance-supply', '/customs-clearance'],
  ['/customer-exception', '/clearance-exception'],
];

/**
 * A customer's link opened by staff: the staff page of the same declaration or exception
 * (same list, same detail page and `?id=`), or null when the path is not a customer link
 * or the role is not staff.
 */
export function staffPathForCustomerLink(role: Role | null, pathname: string): string | null {
  if (!isStaff(role)) return null;
  for (const [customer, staff] of CUSTOMER_TO_STAFF) {
    if (pathname === customer || pathname.startsWith(`${customer}/`)) {
      return staff + pathname.slice(customer.length);
    }
  }
  return null;
}
