// /auth-redirect (and /azure-redirect): customers to /customer-welcome, staff to
// /admin-welcome, anyone else to /login-c. A token without a known role asks the API first.
import { useEffect, useState } from 'react';
import { Center, Loader } from '@mantine/core';
import { Navigate } from 'react-router';
import { normalizeRole } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { getSession } from '../api/session';
import { landingPath } from '../landing';

export default function AuthRedirectPage() {
  const token = useSessionStore((s) => s.token);
  const role = useSessionStore((s) => s.role);
  const [failed, setFailed] = useState(false);
  const needsRole = Boolean(token) && !role && !failed;

  useEffect(() => {
    if (!needsRole) return;
    let cancelled = false;
    getSession()
      .then((info) => {
        const r = normalizeRole(info.role);
        if (cancelled) return;
        if (r) useSessionStore.getState().setRole(r);
        else setFailed(true);
      })
      .catch(() => !cancelled && setFailed(true));
    return () => {
      cancelled = true;
    };
  }, [needsRole]);

  if (needsRole) {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }
  return <Navigate to={landingPath(token ? role : null)} replace />;
}
