// The sidebar menu of spec 2.5, built from the permitted routes.
import type { Icon } from '@tabler/icons-react';
import { roleAllowed, type Role } from '@/lib/roles';
import { isExternal, joinPath } from '@/lib/url';
import type { AppRoute } from '@/shared/routing/types';

export interface MenuItem {
  /** Identity: the path for a leaf, the path plus "#" for a group (its index page may share the path). */
  key: string;
  /** Absolute path or external URL. */
  path: string;
  title: string;
  icon?: Icon;
  specialIcon?: boolean;
  external: boolean;
  closesMenuGroups?: boolean;
  children?: MenuItem[];
}

export interface MenuContext {
  role: Role | null;
  permissions: readonly string[];
}

/** Whether one route may appear, ignoring its children: not hidden, role, permission tag. */
export function routeVisible(route: AppRoute, ctx: MenuContext): boolean {
  const meta = route.meta ?? {};
  if (meta.hidden) return false;
  if (!roleAllowed(ctx.role, meta.roles)) return false;
  if (meta.permissionTag && !ctx.permissions.includes(meta.permissionTag)) return false;
  return true;
}

/**
 * Items show when visible; a group shows only if at least one child is visible. A group
 * with a single visible child and no alwaysShow collapses into that child.
 */
export function buildMenu(
  routes: readonly AppRoute[],
  ctx: MenuContext,
  parentPath = '',
): MenuItem[] {
  const items: MenuItem[] = [];
  for (const route of routes) {
    if (!routeVisible(route, ctx)) continue;
    const key = isExternal(route.path) ? route.path : joinPath(parentPath, route.path);
    const meta = route.meta ?? {};
    const base: MenuItem = {
      key,
      path: key,
      title: meta.title ?? route.name,
      icon: meta.icon,
      specialIcon: meta.specialIcon,
      external: isExternal(route.path),
      closesMenuGroups: meta.closesMenuGroups,
    };
    if (!route.children || route.children.length === 0) {
      items.push(base);
      continue;
    }
    const children = buildMenu(route.children, ctx, key);
    if (children.length === 0) continue;
    if (children.length === 1 && !meta.alwaysShow && !children[0].children) {
      items.push({ ...children[0], icon: children[0].icon ?? meta.icon });
      continue;
    }
    items.push({ ...base, key: `${key}#`, children });
  }
  return items;
}

/** Keys of the groups on the way to `key` (for opening them). */
export function groupPathTo(
  items: readonly MenuItem[],
  key: string,
  trail: string[] = [],
): string[] | null {
  for (const item of items) {
    if (item.key === key) return trail;
    if (item.children) {
      const found = groupPathTo(item.children, key, [...trail, item.key]);
      if (found) return found;
    }
  }
  return null;
}

/** The top-level item containing `key` (its icon is highlighted). */
export function topLevelOf(items: readonly MenuItem[], key: string): string | null {
  for (const item of items) {
    if (item.key === key) return item.key;
    if (item.children && groupPathTo(item.children, key)) return item.key;
  }
  return null;
}

/**
 * Open groups after selecting `key`: an item flagged closesMenuGroups closes every group
 * listed above it at the top level; otherwise the groups leading to it are opened.
 */
export function openGroupsAfterSelect(
  items: readonly MenuItem[],
  opened: readonly string[],
  key: string,
): string[] {
  const index = items.findIndex((i) => i.key === key);
  if (index >= 0 && items[index].closesMenuGroups) {
    const above = new Set(items.slice(0, index).flatMap((i) => collectGroupKeys(i)));
    return opened.filter((k) => !above.has(k));
  }
  const path = groupPathTo(items, key) ?? [];
  return [...new Set([...opened, ...path])];
}

function collectGroupKeys(item: MenuItem): string[] {
  if (!item.children) return [];
  return [item.key, ...item.children.flatMap(collectGroupKeys)];
}
