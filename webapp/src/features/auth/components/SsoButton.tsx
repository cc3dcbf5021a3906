// The corporate sign-on button of /login-b: POST /api/v1/sso/start, keep state + PKCE
// verifier in this tab's sessionStorage, then go to the provider.
import { useState } from 'react';
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconBuildingSkyscraper } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/request';
import { useSsoConfig } from '../api/getSsoConfig';
import { startSso } from '../api/startSso';
import { flowStorage } from '@/shared/auth/flowStorage';
import { browser } from '@/shared/auth/model/browser';
import { ssoRedirectUri } from '../model/ssoRedirect';

export function SsoButton() {
  const { t } = useTranslation();
  const config = useSsoConfig();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const enabled = config.data?.enabled === true;

  async function start() {
    setError(null);
    setBusy(true);
    try {
      const started = await startSso(ssoRedirectUri());
      flowStorage.setSsoFlow({ state: started.state, codeVerifier: started.codeVerifier });
      browser.go(started.authorizationUrl);
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t('identity.sso.unavailable'));
      setBusy(false);
    }
  }

  return (
    <Stack gap="xs">
      {error && (
        <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
          {error}
        </Alert>
      )}
      <Button
        size="md"
        leftSection={<IconBuildingSkyscraper size={18} />}
        disabled={!enabled}
        loading={busy || config.isPending}
        onClick={() => void start()}
        fullWidth
      >
        {t('identity.sso.button')}
      </Button>
      {config.isSuccess && !enabled && (
        <Text size="sm" c="dimmed">
          {t('identity.sso.notConfigured')}
        </Text>
      )}
    </Stack>
  );
}
