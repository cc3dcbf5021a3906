// /customers-center/account: the customer's login account (GET /api/v1/customer/profile and
// GET /api/v1/session), the choice to be e-mailed on customs' release or rejection
// (GET/PUT /api/v1/customer/customs-email) and the change-password dialog.
import { lazy, Suspense, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Switch,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconKey, IconLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { useCustomerProfile } from '@/shared/auth/api/customerProfile';
import { useSession } from '@/shared/auth/api/session';
import { showMessage } from '@/lib/message';
import { useCustomsEmail, useSetCustomsEmail } from '../api/customsEmail';

const ChangePasswordDialog = lazy(() => import('@/shared/auth/components/ChangePasswordDialog'));

function Field({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={500} component="div">
        {value}
      </Text>
    </Stack>
  );
}

/** The customer's choice to be e-mailed when customs releases or rejects a declaration. */
function CustomsEmailCard() {
  const { t } = useTranslation();
  const choice = useCustomsEmail();
  const set = useSetCustomsEmail();
  const email = choice.data?.email;
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-label={t('identity.account.customsEmail.title')}
    >
      <Stack gap="xs">
        <Switch
          label={t('identity.account.customsEmail.label')}
          checked={choice.data?.enabled ?? false}
          disabled={!choice.data || set.isPending}
          onChange={(e) =>
            set.mutate(e.currentTarget.checked, {
              onSuccess: () => showMessage('success', t('identity.account.customsEmail.saved')),
              onError: (err) => showMessage('error', (err as Error).message),
            })
          }
        />
        <Text size="xs" c="dimmed">
          {email
            ? t('identity.account.customsEmail.to', { email })
            : t('identity.account.customsEmail.noEmail')}
        </Text>
      </Stack>
    </Card>
  );
}

export default function AccountPage() {
  const { t } = useTranslation();
  const profile = useCustomerProfile();
  const session = useSession();
  const [dialog, setDialog] = useState(false);
  const none = t('identity.account.none');

  if (profile.isPending) {
    return (
      <Group justify="center" p="xl">
        <Loader />
      </Group>
    );
  }
  if (profile.isError) {
    return (
      <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
        <Group justify="space-between">
          <Text size="sm">{t('identity.account.loadFailed')}</Text>
          <Button size="xs" variant="default" onClick={() => void profile.refetch()}>
            {t('identity.account.retry')}
          </Button>
        </Group>
      </Alert>
    );
  }
  const p = profile.data;
  const username = session.data?.username ?? p.username;
  const bound = !p.isLocked && Boolean(p.upsId);

  return (
    <PageLayout
      maw={880}
      title={t('identity.account.title')}
      actions={
        <Button leftSection={<IconKey size={16} />} onClick={() => setDialog(true)}>
          {t('identity.account.changePassword')}
        </Button>
      }
    >
      <Card withBorder padding="lg">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          <Field label={t('identity.account.username')} value={username} />
          <Field label={t('identity.account.company')} value={p.companyName || none} />
          <Field label={t('identity.account.email')} value={p.email || none} />
          <Field label={t('identity.account.city')} value={p.city || none} />
          <Field label={t('identity.account.port')} value={p.portCode || none} />
          <Field label={t('identity.account.slic')} value={p.slicCode || none} />
          <Field label={t('identity.account.postalCode')} value={p.postalCode || none} />
          <Field
            label={t('identity.account.easyClearId')}
            value={
              bound ? (
                <Group gap="xs">
                  <span>{p.upsId}</span>
                  <Badge color="teal" variant="light">
                    {t('identity.account.bound')}
                  </Badge>
                </Group>
              ) : (
                <Group gap="xs">
                  <Badge color="orange" variant="light">
                    {t('identity.account.notBound')}
                  </Badge>
                  <Button
                    component={Link}
                    to="/customers-center/bind"
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconLink size={14} />}
                  >
                    {t('identity.account.bindNow')}
                  </Button>
                </Group>
              )
            }
          />
          <Field label={t('identity.account.accountNo')} value={p.accountNo || none} />
          <Field label={t('identity.account.upsAccount')} value={p.upsAccount || none} />
        </SimpleGrid>
      </Card>
      <CustomsEmailCard />
      {dialog && (
        <Suspense fallback={null}>
          <ChangePasswordDialog opened={dialog} onClose={() => setDialog(false)} />
        </Suspense>
      )}
    </PageLayout>
  );
}
