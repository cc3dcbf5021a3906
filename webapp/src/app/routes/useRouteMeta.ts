import { useRouteHandles } from './useRouteHandles';
import type { RouteMeta } from './types';

/** Metadata of the page being shown (title key, declarationType, declarationClass, area...). */
export function useRouteMeta(): RouteMeta {
  return useRouteHandles().at(-1)?.meta ?? {};
}
