// /auth-redirect (and /azure-redirect). Back from the identity provider (code & state, or
// error): check the state against the one this tab started, finish the sign-on with the
// stored PKCE verifier, store the token like the password login, land on /admin-welcome; a
// refused sign-on shows the server's message and a "try again" link. Otherwise: customers
// to /customer-welcome, staff to /admin-welcome, anyone else to /login-c (a token without a
// known role asks the API first).
import { useEffect, useRef, useState } from 'react';
import { Center, Loader, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ApiError } from '@/lib/request';
import { normalizeRole } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { getSession } from '@/shared/auth/api/session';
import { finishSso } from '@/features/auth/api/finishSso';
import { flowStorage } from '@/shared/auth/flowStorage';
import { landingPath } from '@/features/auth/landing';
import { readSsoRedirect, type SsoRedirect } from '@/features/auth/model/ssoRedirect';
import { completeLogin } from '@/shared/auth/sessionLoader';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { FlowProblem } from '@/features/auth/components/FlowProblem';

export default function AuthRedirectPage() {
  const location = useLocation();
  const [redirect] = useState<SsoRedirect>(() =>
    readSsoRedirect(location.search, flowStorage.ssoFlow()),
  );
  if (redirect.kind === 'none') return <LandingRedirect />;
  return <SsoReturn redirect={redirect} />;
}

function SsoReturn({ redirect }: { redirect: Exclude<SsoRedirect, { kind: 'none' }> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<{ text: string; reason?: string } | null>(() => {
    if (redirect.kind === 'stateMismatch') return { text: t('identity.sso.stateMismatch') };
    if (redirect.kind === 'providerError') {
      return {
        text: t('identity.sso.providerError', {
          error: redirect.description ?? redirect.error,
        }),
      };
    }
    return null;
  });
  const sent = useRef(false);

  useEffect(() => {
    if (redirect.kind !== 'callback' || sent.current) return;
    sent.current = true;
    // The state and verifier are single use, whatever the answer.
    flowStorage.clearSsoFlow();
    const { code, state, codeVerifier } = redirect;
    finishSso({ code, state, codeVerifier })
      .then(async (token) => {
        flowStorage.setSsoSession(true);
        await completeLogin(token);
        navigate('/admin-welcome', { replace: true });
      })
      .catch((error: unknown) => {
        const reason = error instanceof ApiError ? (error.reason ?? undefined) : undefined;
        const text =
          error instanceof ApiError && error.message
            ? error.message
            : t('identity.sso.unavailable');
        setFailure({ text, reason });
      });
  }, [redirect, navigate, t]);

  useEffect(() => {
    if (redirect.kind !== 'callback') flowStorage.clearSsoFlow();
  }, [redirect]);

  if (!failure) {
    return (
      <Center h="100vh" aria-busy="true">
        <Stack align="center">
          <Loader />
          <Text c="dimmed">{t('identity.sso.checking')}</Text>
        </Stack>
      </Center>
    );
  }
  return (
    <AuthLayout subtitle={t('login.staffTitle')}>
      <FlowProblem
        title={t('identity.sso.failedTitle')}
        links={[
          { to: '/login-b', label: t('identity.sso.tryAgain') },
          { to: '/login-c', label: t('login.customerEntry') },
        ]}
      >
        <Text size="sm">{failure.text}</Text>
        {failure.reason === 'UNKNOWN_STAFF' && (
          <Text size="sm" mt="xs" fw={500}>
            {t('identity.sso.unknownStaff')}
          </Text>
        )}
      </FlowProblem>
    </AuthLayout>
  );
}

function LandingRedirect() {
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
