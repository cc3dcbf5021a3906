// Turns the route table into react-router routes: public pages and the shell (lazy) under
// one guard; metadata travels in each route's `handle`.
import { lazy, Suspense, useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useNavigate, type RouteObject } from 'react-router';
import { GlobalLoading } from '@/components/GlobalLoading';
import { configureRequestClient } from '@/lib/request';
import { joinPath } from '@/lib/url';
import { RouteGuard } from './guard/RouteGuard';
import { PageLoader } from './shell/KeepAliveOutlet';
import { NotFoundPage, protectedRoutes, publicRoutes, statusRoutes } from './routes/routes';
import { useSessionStore } from '@/lib/session';
import type { AppRoute, RouteHandle } from '@/shared/routing/types';

const ShellLayout = lazy(() => import('./shell/ShellLayout'));

function toRouteObject(route: AppRoute, parentPath: string, isIndex = false): RouteObject {
  const fullPath = joinPath(parentPath, route.path);
  const handle: RouteHandle = {
    name: route.name,
    fullPath,
    meta: route.meta ?? {},
    navigable: Boolean(route.component || route.redirect),
  };
  const children: RouteObject[] = [];
  if (route.redirect) {
    children.push({
      index: true,
      element: <Navigate to={joinPath(fullPath, route.redirect)} replace />,
    });
  }
  for (const child of route.children ?? []) {
    children.push(toRouteObject(child, fullPath, child.path === ''));
  }
  const Page = route.component;
  const element = Page ? <Page /> : undefined;
  if (isIndex) return { index: true, handle, element };
  if (children.length === 0) return { path: route.path, handle, element };
  return {
    path: route.path,
    handle,
    // A route with a page and children renders the page as its index.
    children: element ? [{ index: true, handle, element }, ...children] : children,
  };
}

function PublicLayout() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

/** The 403 page: inside the shell (menu and user menu kept) when signed in, bare otherwise. */
function StatusLayout() {
  const signedIn = useSessionStore((s) => Boolean(s.token && s.role));
  if (!signedIn) return <PublicLayout />;
  return (
    <Suspense fallback={<PageLoader />}>
      <ShellLayout />
    </Suspense>
  );
}

function RootLayout() {
  const navigate = useNavigate();
  useEffect(() => {
    configureRequestClient({ navigate: (path) => void navigate(path) });
  }, [navigate]);
  return (
    <>
      <GlobalLoading />
      <RouteGuard />
    </>
  );
}

export const routeObjects: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        path: '/',
        handle: {
          name: 'root',
          fullPath: '/',
          meta: { public: true },
          navigable: true,
        } satisfies RouteHandle,
        element: <Navigate to="/auth-redirect" replace />,
      },
      { element: <PublicLayout />, children: publicRoutes.map((r) => toRouteObject(r, '')) },
      { element: <StatusLayout />, children: statusRoutes.map((r) => toRouteObject(r, '')) },
      {
        element: (
          <Suspense fallback={<PageLoader />}>
            <ShellLayout />
          </Suspense>
        ),
        children: protectedRoutes.map((r) => toRouteObject(r, '')),
      },
      {
        path: '*',
        handle: {
          name: 'not-found',
          fullPath: '*',
          meta: { public: true, title: 'route.notFound' },
          navigable: false,
        } satisfies RouteHandle,
        element: (
          <Suspense fallback={<PageLoader />}>
            <NotFoundPage />
          </Suspense>
        ),
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routeObjects);
}
