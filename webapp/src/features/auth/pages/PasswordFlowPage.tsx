// /pass-reset (10002's first password, or the mailed link `/pass-reset?token=...`) and
// /pass-update (10003). The temporary token comes from sessionStorage (set by the login
// form) or, for the mailed link, from the link itself. After a first password or an update
// the user is signed in with it; after a mailed reset they sign in on the login page.
import { useMemo } from 'react';
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useResetPassword } from '@/features/auth/api/resetPassword';
import { useSetupPassword } from '@/features/auth/api/setupPassword';
import { useUpdatePassword } from '@/features/auth/api/updatePassword';
import { flowStorage, type LoginPage } from '@/shared/auth/flowStorage';
import { signInAfterFlow } from '@/features/auth/signIn';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { FlowProblem } from '@/features/auth/components/FlowProblem';
import {
  NewPasswordForm,
  type NewPasswordValues,
} from '@/features/auth/components/NewPasswordForm';

type Mode = 'setup' | 'update' | 'reset';

function PasswordFlow({ mode }: { mode: Mode }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const setup = useSetupPassword();
  const update = useUpdatePassword();
  const reset = useResetPassword();
  const linkToken = mode === 'reset' ? params.get('token') : null;
  // Read once per page: the flow is cleared when it succeeds.
  const flow = useMemo(() => (mode === 'reset' ? null : flowStorage.tempFlow(mode)), [mode]);
  const from: LoginPage = flow?.from ?? '/login-c';
  const title = t(`identity.password.${mode}Title`);

  if (mode === 'reset' ? !linkToken : !flow) {
    return (
      <AuthLayout subtitle={title}>
        <FlowProblem
          title={t('identity.password.noTokenTitle')}
          links={[
            { to: from, label: t('identity.password.backToLogin') },
            { to: '/forget-password', label: t('identity.password.forgotAgain') },
          ]}
        >
          {t('identity.password.noToken')}
        </FlowProblem>
      </AuthLayout>
    );
  }

  async function submit(values: NewPasswordValues) {
    if (mode === 'reset') {
      await reset.mutateAsync({ token: linkToken ?? '', ...values });
      flowStorage.setLoginNotice({ messageKey: 'identity.login.passwordSet' });
      navigate('/login-c', { replace: true });
      return;
    }
    if (!flow) return;
    const input = { tempToken: flow.tempToken, ...values };
    await (mode === 'setup' ? setup.mutateAsync(input) : update.mutateAsync(input));
    flowStorage.clearTempFlow();
    const signedIn = await signInAfterFlow(
      flow.username,
      values.newPassword,
      'identity.login.passwordSet',
    );
    navigate(signedIn ? '/' : flow.from, { replace: true });
  }

  return (
    <AuthLayout subtitle={title}>
      <Stack>
        <Text size="sm">
          {mode === 'reset'
            ? t('identity.password.resetIntro')
            : t(`identity.password.${mode}Intro`, { username: flow?.username })}
        </Text>
        <NewPasswordForm
          owner={{ username: flow?.username }}
          submitLabel={t('identity.password.submit')}
          onSubmit={submit}
        />
      </Stack>
    </AuthLayout>
  );
}

/** /pass-reset: the mailed link when the URL has `token`, otherwise the 10002 setup. */
export function PassResetPage() {
  const [params] = useSearchParams();
  const mode: Mode = params.has('token') ? 'reset' : 'setup';
  return <PasswordFlow key={mode} mode={mode} />;
}

/** /pass-update: the 10003 required new password. */
export function PassUpdatePage() {
  return <PasswordFlow mode="update" />;
}
