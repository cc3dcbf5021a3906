import { useContext } from 'react';
import { UNSAFE_RouteContext as RouteContext } from 'react-router';
import type { RouteHandle, RouteMeta } from './types';

/**
 * Metadata of the page calling it (title key, declarationType, declarationClass, area...).
 * Read from the page's own route context rather than the router's current matches, so a
 * page kept alive in a hidden tab keeps seeing its own metadata.
 */
export function useRouteMeta(): RouteMeta {
  const { matches } = useContext(RouteContext);
  for (let i = matches.length - 1; i >= 0; i--) {
    const handle = matches[i].route.handle as RouteHandle | undefined;
    if (handle?.meta) return handle.meta;
  }
  return {};
}
