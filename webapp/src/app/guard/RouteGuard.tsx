// Applies decideNavigation to every location: redirects, loads the session once, sets the
// page title from the route title.
import { useEffect, useMemo, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { flowStorage } from '@/shared/auth/flowStorage';
import { loadSession } from '@/shared/auth/sessionLoader';
import { message } from '@/lib/message';
import { ApiError } from '@/lib/request';
import { useSessionStore } from '@/lib/session';
import { effectiveRoles, effectiveTags } from '../routes/flatten';
import { firstPermittedPath } from '../routes/landing';
import { protectedRoutes } from '../routes/routes';
import { useRouteHandles } from '../routes/useRouteHandles';
import { decideNavigation, LOGIN_C, loginRedirect } from './decideNavigation';

let pendingLoad: Promise<void> | null = null;

export function RouteGuard() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const handles = useRouteHandles();
  const session = useSessionStore(
    useShallow((s) => ({
      token: s.token,
      role: s.role,
      loaded: s.loaded,
      permissions: s.permissions,
      isLocked: Boolean(s.userinfo?.isLocked),
    })),
  );
  const [failed, setFailed] = useState(false);
  const { role, permissions } = session;
  // The first page this user may open: where a home page they may not open sends them.
  const landing = useMemo(
    () => firstPermittedPath(protectedRoutes, { role, permissions }),
    [role, permissions],
  );

  const leaf = handles.at(-1);
  const chain = handles.map((h) => h.meta);
  const decision = decideNavigation({
    pathname: location.pathname,
    search: location.search,
    route: {
      public: leaf?.meta.public ?? false,
      needsTempToken: leaf?.meta.needsTempToken,
      roles: effectiveRoles(chain),
      permissionTags: effectiveTags(chain),
    },
    token: session.token,
    // /pass-reset: the 10002 token (this tab's sessionStorage) or the mailed link's token.
    tempToken:
      flowStorage.hasTempToken() || new URLSearchParams(location.search).has('token')
        ? 'present'
        : null,
    role: session.role,
    loaded: session.loaded,
    permissions: session.permissions,
    isLocked: session.isLocked,
    landing,
  });

  const titleKey = [...chain].reverse().find((m) => m.title)?.title;
  useEffect(() => {
    const appTitle = t('app.title');
    document.title = titleKey ? `${t(titleKey)} - ${appTitle}` : appTitle;
  }, [titleKey, t]);

  const mustLoad = decision.kind === 'load' && !failed;
  const { pathname, search } = location;
  useEffect(() => {
    if (!mustLoad) return;
    pendingLoad ??= loadSession().finally(() => {
      pendingLoad = null;
    });
    pendingLoad.catch((error: unknown) => {
      // A 401 has already logged out and reloads; anything else: clear, tell, go to login.
      if (error instanceof ApiError && error.code === 401) return;
      if (!(error instanceof ApiError) || error.status === 0) {
        // No answer from the server (network down, or the request was cut off by a page
        // load): the session is not at fault, so keep it and try again shortly.
        setFailed(true);
        window.setTimeout(() => setFailed(false), 2000);
        return;
      }
      setFailed(true);
      useSessionStore.getState().clear();
      message.error(
        error instanceof Error && error.message ? error.message : t('guard.loadFailed'),
      );
      navigate(loginRedirect(LOGIN_C, pathname, search), { replace: true });
      setFailed(false);
    });
  }, [mustLoad, navigate, pathname, search, t]);

  if (decision.kind === 'redirect') return <Navigate to={decision.to} replace />;
  if (decision.kind === 'load') {
    return (
      <Center h="100vh" aria-busy="true">
        <Loader />
      </Center>
    );
  }
  return <Outlet />;
}
