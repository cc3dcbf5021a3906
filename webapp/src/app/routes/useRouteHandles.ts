import { useMatches } from 'react-router';
import type { RouteHandle } from '@/shared/routing/types';

/** Handles (name, full path, metadata) of the matched routes, outermost first. */
export function useRouteHandles(): RouteHandle[] {
  const matches = useMatches();
  return matches
    .map((m) => m.handle as RouteHandle | undefined)
    .filter((h): h is RouteHandle => Boolean(h && h.meta));
}
