import type { ComponentType, LazyExoticComponent } from 'react';
import type { Icon } from '@tabler/icons-react';
import type { Role } from '@/lib/roles';

/** Route metadata of spec 3 ("Route metadata") plus what the shell needs. */
export interface RouteMeta {
  /** i18n key of the title (zh and en live in src/locales). */
  title?: string;
  icon?: Icon;
  /** Highlight the icon specially (the AI-create entry). */
  specialIcon?: boolean;
  hidden?: boolean;
  /** Menu entry to highlight while this (hidden) page is open. */
  activeMenu?: string;
  roles?: readonly Role[];
  permissionTag?: string;
  level?: number;
  /** Show the group even with a single visible child. */
  alwaysShow?: boolean;
  /** Tab survives "close all" / "close others". */
  affix?: boolean;
  /** Not kept alive when its tab is inactive. */
  noCache?: boolean;
  /** No token needed. */
  public?: boolean;
  /** Public only while a temporary token is stored (/pass-reset). */
  needsTempToken?: boolean;
  /** Selecting this entry closes the menu groups above it (the status query). */
  closesMenuGroups?: boolean;
  /** Declaration pages: the type code of a list ("OB" ... "ID"). */
  declarationType?: string;
  /** Declaration pages: the class of a detail page ("B" | "C" | "D"). */
  declarationClass?: 'B' | 'C' | 'D';
  /** Declaration and exception pages: whose screens these are. */
  area?: 'customer' | 'staff';
  /** Exception lists: export or import exceptions. */
  exceptionDirection?: 'export' | 'import';
}

export type PageComponent = LazyExoticComponent<ComponentType> | ComponentType;

export interface AppRoute {
  /** Segment relative to the parent ('' = the parent's index page). */
  path: string;
  /** Unique name; also the keep-alive cache key of spec 4 ("cache by name"). */
  name: string;
  meta?: RouteMeta;
  /** Where the bare path sends you (index redirect). */
  redirect?: string;
  component?: PageComponent;
  children?: AppRoute[];
}

/** A route with its absolute path and its ancestors' metadata resolved. */
export interface FlatRoute {
  fullPath: string;
  name: string;
  meta: RouteMeta;
  /** Metadata of every level from the top, this one last. */
  chain: RouteMeta[];
  route: AppRoute;
}

export interface RouteHandle {
  name: string;
  fullPath: string;
  meta: RouteMeta;
  /** The bare path shows a page or redirects to one (breadcrumb links). */
  navigable: boolean;
}
