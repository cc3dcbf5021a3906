// Logout (spec 4): confirm, optional pre-logout request, 2 s blocking "exiting" overlay,
// clear everything stored, customer -> /login-c (flagged), others -> /login-b. A session
// opened through single sign-on also ends at the provider (docs/sso.md): the provider's
// logout URL is read before our session is revoked, and the browser goes there last.
import { useCallback } from 'react';
import { modals } from '@mantine/modals';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTabsStore } from '@/shared/tabs/tabsStore';
import { loading } from '@/lib/loading';
import { queryClient } from '@/lib/queryClient';
import { sessionActions, type PreLogoutRequest } from '@/lib/session';
import { storage } from '@/lib/storage';
import { logoutRequest } from '@/shared/auth/api/logout';
import { preLogoutRequest } from '@/shared/auth/api/preLogout';
import { getSsoLogoutUrl } from '@/shared/auth/api/getSsoLogoutUrl';
import { flowStorage } from './flowStorage';
import { browser } from '@/shared/auth/model/browser';

export const LOGOUT_OVERLAY_MS = 2000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function useLogout() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  const logoutNow = useCallback(async () => {
    const role = sessionActions.get().role;
    loading.block(t('logout.exiting'));
    let providerLogout: string | null = null;
    try {
      if (role !== 'CUSTOMER' && flowStorage.isSsoSession()) {
        providerLogout = await getSsoLogoutUrl().catch(() => null);
      }
      const pre = storage.getJson<PreLogoutRequest>('preLogout');
      await Promise.allSettled([
        pre ? preLogoutRequest(pre) : null,
        logoutRequest(),
        sleep(LOGOUT_OVERLAY_MS),
      ]);
    } finally {
      sessionActions.clear();
      flowStorage.setSsoSession(false);
      queryClient.clear();
      useTabsStore.getState().reset();
      loading.unblock();
    }
    if (providerLogout) {
      browser.go(providerLogout);
      return;
    }
    navigate(role === 'CUSTOMER' ? '/login-c?logout=customer' : '/login-b', { replace: true });
  }, [navigate, t]);

  const confirmLogout = useCallback(() => {
    modals.openConfirmModal({
      title: t('logout.title'),
      children: t('logout.confirm'),
      labels: { confirm: t('common.confirm'), cancel: t('common.cancel') },
      onConfirm: () => void logoutNow(),
    });
  }, [logoutNow, t]);

  return { confirmLogout, logoutNow };
}
