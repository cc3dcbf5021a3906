// /customers-center/bind: a locked customer (nothing bound yet) binds the Easy-clear ID and
// account number staff registered; the guard keeps them here until then. On success the
// profile is read again (unlocking the session) and they go to /customer-welcome.
import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { useCustomerProfile } from '@/shared/auth/api/customerProfile';
import { splitFieldErrors } from '@/shared/auth/model/fieldErrors';
import { loadSession } from '@/shared/auth/sessionLoader';
import { useLogout } from '@/shared/auth/useLogout';
import { classifyLoginError } from '@/shared/auth/api/login';
import { message } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { useBindEasyClear } from '@/features/account-center/api/bindEasyClear';

export default function BindPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const locked = useSessionStore((s) => Boolean(s.userinfo?.isLocked));
  const profile = useCustomerProfile();
  const bind = useBindEasyClear();
  const { confirmLogout } = useLogout();
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm({
    initialValues: { upsId: '', accountNo: '' },
    validate: {
      upsId: (v) => (v.trim() ? null : t('identity.bind.upsIdRequired')),
      accountNo: (v) => (v.trim() ? null : t('identity.bind.accountNoRequired')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      await bind.mutateAsync(values);
    } catch (error) {
      const outcome = classifyLoginError(error);
      if (outcome.kind === 'rateLimited') {
        setServerError(t('identity.login.rateLimited', { seconds: outcome.seconds }));
        return;
      }
      const { fields, other } = splitFieldErrors(error, ['upsId', 'accountNo']);
      form.setErrors(fields);
      setServerError(other ?? (Object.keys(fields).length ? null : t('request.network')));
      return;
    }
    // Read the profile again: it carries the lock flag the guard follows.
    await loadSession().catch(() => profile.refetch());
    message.success(t('identity.bind.success'));
    navigate('/customer-welcome', { replace: true });
  });

  if (!locked && profile.data && !profile.data.isLocked) {
    return (
      <Card withBorder maw={560} padding="lg">
        <Stack>
          <Alert
            color="teal"
            icon={<IconCircleCheck size={18} />}
            title={t('identity.bind.alreadyTitle')}
          >
            {t('identity.bind.already', { upsId: profile.data.upsId ?? '' })}
          </Alert>
          <Group>
            <Button component={Link} to="/customer-welcome">
              {t('identity.bind.goHome')}
            </Button>
          </Group>
        </Stack>
      </Card>
    );
  }

  return (
    <PageLayout maw={560} title={t('identity.bind.title')}>
      <Card withBorder padding="lg">
        <form onSubmit={submit} noValidate>
          <Stack>
            <Text size="sm" c="dimmed">
              {t('identity.bind.intro')}
            </Text>
            {serverError && (
              <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
                {serverError}
              </Alert>
            )}
            <TextInput
              label={t('identity.bind.upsId')}
              withAsterisk
              data-autofocus
              autoComplete="off"
              {...form.getInputProps('upsId')}
            />
            <TextInput
              label={t('identity.bind.accountNo')}
              withAsterisk
              autoComplete="off"
              {...form.getInputProps('accountNo')}
            />
            <Group justify="space-between">
              <Button variant="subtle" color="gray" onClick={confirmLogout}>
                {t('identity.bind.logout')}
              </Button>
              <Button type="submit" loading={bind.isPending}>
                {t('identity.bind.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </PageLayout>
  );
}
