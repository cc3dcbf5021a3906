// Username + password form used by the customer login and the development staff login.
import { useState } from 'react';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { ApiError } from '@/lib/request';
import { loginContinuation, useLogin } from '../api/login';
import { safeRedirect } from '../landing';
import { completeLogin } from '../sessionLoader';

export function PasswordLoginForm({ submitLabel }: { submitLabel: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const loginMutation = useLogin();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: {
      username: (v) => (v.trim() ? null : t('validation.usernameRequired')),
      password: (v) => (v ? null : t('validation.passwordRequired')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setError(null);
    setBusy(true);
    try {
      const token = await loginMutation.mutateAsync({
        username: values.username.trim(),
        password: values.password,
      });
      await completeLogin(token);
      navigate(safeRedirect(params.get('redirect')), { replace: true });
    } catch (e) {
      const next = loginContinuation(e);
      if (next) {
        navigate(next);
        return;
      }
      setError(e instanceof ApiError && e.message ? e.message : t('login.failed'));
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {error && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
            {error}
          </Alert>
        )}
        <TextInput
          label={t('login.username')}
          placeholder={t('login.usernamePlaceholder')}
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
        <Button type="submit" loading={busy} fullWidth mt="sm">
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
