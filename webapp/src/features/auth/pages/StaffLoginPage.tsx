import { Alert, Anchor, Divider, Group, Stack } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isDevelopmentMode, useHealth } from '@/shared/system/api/health';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { PasswordLoginForm } from '@/features/auth/components/PasswordLoginForm';
import { SsoButton } from '@/features/auth/components/SsoButton';

/**
 * /login-b: staff sign-in through the corporate single sign-on (on when the server says so,
 * GET /api/v1/sso/config); in development mode a password form for the demo staff accounts
 * is offered too.
 */
export default function StaffLoginPage() {
  const { t } = useTranslation();
  const health = useHealth();
  const development = isDevelopmentMode(health.data);
  return (
    <AuthLayout subtitle={t('login.staffTitle')}>
      <Stack>
        <SsoButton />
        {development && (
          <>
            <Divider label={t('login.devDivider')} labelPosition="center" />
            <Alert color="yellow" icon={<IconInfoCircle size={18} />}>
              {t('login.devNote')}
            </Alert>
            <PasswordLoginForm submitLabel={t('login.submit')} loginPage="/login-b" />
          </>
        )}
        <Group justify="space-between">
          <Anchor component={Link} to="/forget-password" size="sm">
            {t('login.forgot')}
          </Anchor>
          <Anchor component={Link} to="/login-c" size="sm">
            {t('login.customerEntry')}
          </Anchor>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
