import { Alert, Anchor, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { IconBuildingSkyscraper, IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ssoEnabled } from '@/config';
import { isDevelopmentMode, useHealth } from '@/features/system/api/health';
import { AuthLayout } from './AuthLayout';
import { PasswordLoginForm } from './PasswordLoginForm';

/**
 * /login-b: staff sign-in. Corporate single sign-on comes with the identity issue; in
 * development mode a password form for the demo staff accounts is offered too.
 */
export default function StaffLoginPage() {
  const { t } = useTranslation();
  const health = useHealth();
  const development = isDevelopmentMode(health.data);
  return (
    <AuthLayout subtitle={t('login.staffTitle')}>
      <Stack>
        <Button
          size="md"
          leftSection={<IconBuildingSkyscraper size={18} />}
          disabled={!ssoEnabled}
          fullWidth
        >
          {t('login.sso')}
        </Button>
        {!ssoEnabled && (
          <Text size="sm" c="dimmed">
            {t('login.ssoNotConfigured')}
          </Text>
        )}
        {development && (
          <>
            <Divider label={t('login.devDivider')} labelPosition="center" />
            <Alert color="yellow" icon={<IconInfoCircle size={18} />}>
              {t('login.devNote')}
            </Alert>
            <PasswordLoginForm submitLabel={t('login.submit')} />
          </>
        )}
        <Group justify="flex-end">
          <Anchor component={Link} to="/login-c" size="sm">
            {t('login.customerEntry')}
          </Anchor>
        </Group>
      </Stack>
    </AuthLayout>
  );
}
