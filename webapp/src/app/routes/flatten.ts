import { matchPath } from 'react-router';
import { joinPath } from '@/lib/url';
import type { AppRoute, FlatRoute, RouteMeta } from '@/shared/routing/types';

/** Every route with its absolute path, depth-first, parents before children. */
export function flattenRoutes(
  routes: readonly AppRoute[],
  parentPath = '',
  chain: RouteMeta[] = [],
): FlatRoute[] {
  const out: FlatRoute[] = [];
  for (const route of routes) {
    const fullPath = joinPath(parentPath, route.path);
    const meta = route.meta ?? {};
    const nextChain = [...chain, meta];
    out.push({ fullPath, name: route.name, meta, chain: nextChain, route });
    if (route.children) out.push(...flattenRoutes(route.children, fullPath, nextChain));
  }
  return out;
}

/** The leaf route for a pathname (ignores routes that only group or redirect). */
export function matchFlatRoute(
  flat: readonly FlatRoute[],
  pathname: string,
): FlatRoute | undefined {
  const candidates = flat.filter(
    (r) => r.route.component && matchPath({ path: r.fullPath, end: true }, pathname),
  );
  // Prefer the most specific (longest static) path.
  return candidates.sort((a, b) => b.fullPath.length - a.fullPath.length)[0];
}

/** Roles allowed at every level (the innermost list that is set wins). */
export function effectiveRoles(chain: readonly RouteMeta[]) {
  for (let i = chain.length - 1; i >= 0; i--) {
    if (chain[i].roles && chain[i].roles!.length > 0) return chain[i].roles;
  }
  return undefined;
}

/** Permission tags of every level, outermost first. */
export function effectiveTags(chain: readonly RouteMeta[]): string[] {
  return chain.map((m) => m.permissionTag).filter((t): t is string => Boolean(t));
}
