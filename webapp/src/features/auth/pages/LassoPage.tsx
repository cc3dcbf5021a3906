// /lasso/callback and /lasso/test: SAML sign-on is not offered (docs/sso.md); staff sign in
// with the corporate OpenID Connect sign-on on /login-b.
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthLayout } from '@/features/auth/components/AuthLayout';

export default function LassoPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout subtitle={t('identity.lasso.title')}>
      <Stack>
        <Alert color="blue" icon={<IconInfoCircle size={18} />} title={t('identity.lasso.title')}>
          <Text size="sm">{t('identity.lasso.text')}</Text>
        </Alert>
        <Group justify="space-between">
          <Button component={Link} to="/login-b">
            {t('identity.lasso.staffLogin')}
          </Button>
          <Button component={Link} to="/login-c" variant="default">
            {t('identity.lasso.customerLogin')}
          </Button>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
