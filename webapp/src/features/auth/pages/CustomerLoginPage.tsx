import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { PasswordLoginForm } from '@/features/auth/components/PasswordLoginForm';

/** /login-c: customer login (username + password). */
export default function CustomerLoginPage() {
  const { t } = useTranslation();
  return (
    <AuthLayout subtitle={t('login.customerTitle')}>
      <PasswordLoginForm submitLabel={t('login.submit')} loginPage="/login-c" />
      <Group justify="space-between" mt="md">
        <Anchor component={Link} to="/forget-password" size="sm">
          {t('login.forgot')}
        </Anchor>
        <Text size="sm">
          <Anchor component={Link} to="/login-b">
            {t('login.staffEntry')}
          </Anchor>
        </Text>
      </Group>
    </AuthLayout>
  );
}
