// Username + password form used by the customer login and the development staff login.
// Every answer of POST /auth/login is handled: 10002/10003/10004 continue on their pages
// (the flow's token kept in sessionStorage), 10006 says until when the account is locked,
// 429 counts down until the next try, 10000 shows the server's message.
import { useEffect, useState } from 'react';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { classifyLoginError, continueLogin, useLogin } from '@/shared/auth/api/login';
import { flowStorage, type LoginNotice, type LoginPage } from '@/shared/auth/flowStorage';
import { safeRedirect } from '../landing';
import { completeLogin } from '@/shared/auth/sessionLoader';

type Problem =
  | { kind: 'text'; text: string }
  | { kind: 'locked'; until: string | null }
  | { kind: 'rateLimited' };

export function PasswordLoginForm({
  submitLabel,
  loginPage,
}: {
  submitLabel: string;
  loginPage: LoginPage;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginMutation = useLogin();
  const [notice] = useState<LoginNotice | null>(() => flowStorage.loginNotice());
  useEffect(() => flowStorage.clearLoginNotice(), []);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [busy, setBusy] = useState(false);
  /** Seconds until the server accepts another try (429), counted down on the page. */
  const [remaining, setRemaining] = useState(0);
  const form = useForm({
    initialValues: { username: notice?.username ?? '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : t('validation.usernameRequired')),
      password: (v) => (v ? null : t('validation.passwordRequired')),
    },
  });

  const waiting = problem?.kind === 'rateLimited' && remaining > 0;
  useEffect(() => {
    if (!waiting) return;
    const timer = window.setTimeout(() => setRemaining((r) => Math.max(0, r - 1)), 1000);
    return () => window.clearTimeout(timer);
  }, [waiting, remaining]);

  const submit = form.onSubmit(async (values) => {
    setProblem(null);
    setBusy(true);
    const username = values.username.trim();
    try {
      const token = await loginMutation.mutateAsync({ username, password: values.password });
      flowStorage.setSsoSession(false);
      await completeLogin(token);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (e) {
      const outcome = classifyLoginError(e);
      const next = continueLogin(outcome, username, loginPage);
      if (next) {
        navigate(next);
        return;
      }
      if (outcome.kind === 'locked') setProblem({ kind: 'locked', until: outcome.until });
      else if (outcome.kind === 'rateLimited') {
        setRemaining(outcome.seconds);
        setProblem({ kind: 'rateLimited' });
      } else if (outcome.kind === 'message') setProblem({ kind: 'text', text: outcome.text });
      else setProblem({ kind: 'text', text: t('login.failed') });
    } finally {
      setBusy(false);
    }
  });

  let problemText: string | null = null;
  if (problem?.kind === 'text') problemText = problem.text;
  else if (problem?.kind === 'locked') {
    problemText = problem.until
      ? t('identity.login.locked', { until: dayjs(problem.until).format('YYYY-MM-DD HH:mm:ss') })
      : t('identity.login.lockedNoTime');
  } else if (problem?.kind === 'rateLimited' && waiting) {
    problemText = t('identity.login.rateLimited', { seconds: remaining });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {notice && !problemText && (
          <Alert color="teal" icon={<IconCircleCheck size={18} />} role="status">
            {t(notice.messageKey, { username: notice.username })}
          </Alert>
        )}
        {problemText && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
            {problemText}
          </Alert>
        )}
        <TextInput
          label={t('login.username')}
          placeholder={t('login.usernamePlaceholder')}
          description={loginPage === '/login-c' ? t('login.usernameOrEasyClearId') : undefined}
          autoComplete="username"
          withAsterisk
          data-autofocus
          {...form.getInputProps('username')}
        />
        <PasswordInput
          label={t('login.password')}
          placeholder={t('login.passwordPlaceholder')}
          autoComplete="current-password"
          withAsterisk
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={busy} disabled={waiting} fullWidth mt="sm">
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
