// /forget-password: username or e-mail -> always the same confirmation (the server does not
// say whether the account exists); the link arrives by e-mail and opens /pass-reset?token=.
import { useState } from 'react';
import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useForgotPassword } from '@/features/auth/api/forgotPassword';
import { classifyLoginError } from '@/shared/auth/api/login';
import { splitFieldErrors } from '@/shared/auth/model/fieldErrors';
import { AuthLayout } from '@/features/auth/components/AuthLayout';

export default function ForgetPasswordPage() {
  const { t } = useTranslation();
  const forgot = useForgotPassword();
  const [sent, setSent] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { identifier: '' },
    validate: {
      identifier: (v) => (v.trim() ? null : t('identity.forgot.identifierRequired')),
    },
  });

  const submit = form.onSubmit(async ({ identifier }) => {
    setServerError(null);
    try {
      await forgot.mutateAsync(identifier);
      setSent(true);
    } catch (error) {
      const outcome = classifyLoginError(error);
      if (outcome.kind === 'rateLimited') {
        setServerError(t('identity.login.rateLimited', { seconds: outcome.seconds }));
        return;
      }
      const { fields, other } = splitFieldErrors(error, ['username', 'email']);
      const fieldMessage = fields.username ?? fields.email;
      if (fieldMessage) form.setFieldError('identifier', fieldMessage);
      setServerError(other ?? (fieldMessage ? null : t('request.network')));
    }
  });

  return (
    <AuthLayout subtitle={t('identity.forgot.title')}>
      {sent ? (
        <Stack>
          <Alert
            color="teal"
            icon={<IconMailCheck size={18} />}
            title={t('identity.forgot.sentTitle')}
            role="status"
          >
            {t('identity.forgot.sent')}
          </Alert>
          <Anchor component={Link} to="/login-c" size="sm">
            {t('identity.forgot.backToLogin')}
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm">{t('identity.forgot.intro')}</Text>
            {serverError && (
              <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
                {serverError}
              </Alert>
            )}
            <TextInput
              label={t('identity.forgot.identifier')}
              placeholder={t('identity.forgot.identifierPlaceholder')}
              autoComplete="username"
              withAsterisk
              data-autofocus
              {...form.getInputProps('identifier')}
            />
            <Button type="submit" loading={forgot.isPending} fullWidth>
              {t('identity.forgot.submit')}
            </Button>
            <Group justify="space-between">
              <Anchor component={Link} to="/login-c" size="sm">
                {t('identity.forgot.backToLogin')}
              </Anchor>
              <Anchor component={Link} to="/login-b" size="sm">
                {t('login.staffEntry')}
              </Anchor>
            </Group>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
