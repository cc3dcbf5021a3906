// The completion banner (spec 2.6): total processed (rows or files), added, repeated and
// abnormal counts, a view-result button (disabled-looking when abnormal and repeat are both
// 0), a note of unread results with a link to history, and a close button.
import { Alert, Anchor, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { declarationListPath } from '@/lib/declarations';
import { isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { useUnconfirmedNum } from '../api/getUnconfirmedNum';
import { summarize } from '../model/polling';
import { useUploadStore } from '../model/uploadStore';

export function UploadBanner() {
  const { t } = useTranslation();
  const open = useUploadStore((s) => s.bannerOpen);
  const records = useUploadStore((s) => s.records);
  const close = useUploadStore((s) => s.closeBanner);
  const { data: unread = 0 } = useUnconfirmedNum(open);
  const area = isCustomer(useSessionStore((st) => st.role)) ? 'customer' : 'staff';
  if (!open || records.length === 0) return null;
  const s = summarize(records);
  const first = records[0];
  const quiet = s.abnormal === 0 && s.repeat === 0;
  return (
    <Alert
      role="status"
      withCloseButton
      onClose={close}
      color={s.failed > 0 ? 'orange' : 'teal'}
      title={t('upload.complete')}
      style={{ position: 'fixed', top: 64, right: 16, zIndex: 300, maxWidth: 420 }}
    >
      <Text size="sm">
        {t(s.unit === 'files' ? 'upload.summaryFiles' : 'upload.summaryRows', {
          total: s.total,
          added: s.added,
          drafts: s.drafts,
          repeat: s.repeat,
          abnormal: s.abnormal,
        })}
      </Text>
      {s.drafts > 0 && first && (
        <Anchor
          component={Link}
          to={declarationListPath(area, first.type, { status: 0 })}
          size="sm"
          onClick={close}
        >
          {t('upload.openDrafts')}
        </Anchor>
      )}
      {s.failed > 0 && (
        <Text size="sm" c="orange">
          {t('upload.failedFiles', { n: s.failed })}
        </Text>
      )}
      <Group mt="xs" justify="space-between">
        <Button
          size="compact-sm"
          variant={quiet ? 'default' : 'filled'}
          data-disabled={quiet || undefined}
          onClick={() => {
            if (quiet || !first) return;
            useUploadStore.getState().openResult(first.id);
          }}
        >
          {t('upload.viewResult')}
        </Button>
        {unread > 0 && (
          <Text size="xs">
            {t('upload.unreadNote', { n: unread })}{' '}
            <Anchor
              component="button"
              type="button"
              size="xs"
              onClick={() => useUploadStore.getState().setHistoryOpen(true)}
            >
              {t('upload.history')}
            </Anchor>
          </Text>
        )}
      </Group>
    </Alert>
  );
}
