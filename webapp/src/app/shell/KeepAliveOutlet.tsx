// Keep-alive for tabs (spec 2.5/4): pages of open, cacheable tabs stay mounted but hidden
// (React <Activity>), each seeing the location it was last shown with; no-cache pages are
// rendered fresh.
import { Activity, Suspense, useRef, type ReactNode } from 'react';
import { Center, Loader } from '@mantine/core';
import {
  UNSAFE_LocationContext as LocationContext,
  NavigationType,
  useLocation,
  useOutlet,
  type Location,
} from 'react-router';
import { useRouteHandles } from '../routes/useRouteHandles';
import { useTabsStore } from '@/shared/tabs/tabsStore';

interface Entry {
  element: ReactNode;
  location: Location;
}

export function PageLoader() {
  return (
    <Center py="xl">
      <Loader size="sm" />
    </Center>
  );
}

export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const location = useLocation();
  const leaf = useRouteHandles().at(-1);
  const cachedViews = useTabsStore((s) => s.cachedViews);
  const cache = useRef(new Map<string, Entry>());

  const current = location.pathname;
  const cacheable = Boolean(leaf && !leaf.meta.noCache && !leaf.meta.public);

  // The cache is render output bookkeeping, not state: writing it here keeps the active
  // entry in step with the outlet without an extra render.
  /* eslint-disable react-hooks/refs */
  const entries = cache.current;
  if (cacheable) entries.set(current, { element: outlet, location });
  else entries.delete(current);
  for (const key of [...entries.keys()]) {
    if (key !== current && !cachedViews.includes(key)) entries.delete(key);
  }
  const rendered = [...entries.entries()];
  /* eslint-enable react-hooks/refs */

  return (
    <>
      {rendered.map(([path, entry]) => (
        <Activity key={path} mode={path === current ? 'visible' : 'hidden'}>
          <LocationContext.Provider
            value={{ location: entry.location, navigationType: NavigationType.Pop }}
          >
            <Suspense fallback={<PageLoader />}>{entry.element}</Suspense>
          </LocationContext.Provider>
        </Activity>
      ))}
      {!cacheable && (
        <Suspense key={current} fallback={<PageLoader />}>
          {outlet}
        </Suspense>
      )}
    </>
  );
}
