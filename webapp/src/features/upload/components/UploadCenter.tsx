// The header's upload pieces (spec 2.5, 2.6): the batch-upload button, the upload-history
// icon with its unread badge (capped at 9, hidden at 0), and the dialogs, drawer and banner
// they open. Polling runs here so that it resumes after a reload on any page.
import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { IconFileUpload, IconHistory } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useUnconfirmedNum } from '../api/getUnconfirmedNum';
import { badgeLabel } from '../model/polling';
import { useUploadStore } from '../model/uploadStore';
import { HistoryDrawer } from './HistoryDrawer';
import { ResultDialog } from './ResultDialog';
import { UploadBanner } from './UploadBanner';
import { UploadDialog } from './UploadDialog';
import { useUploadPolling } from './useUploadPolling';

/**
 * `iconsVisibleFrom`: show the two header icons from this breakpoint up only (on a phone
 * the user menu offers them); the dialogs, drawer and banner work at every width.
 */
export function UploadCenter({
  enabled,
  iconsVisibleFrom,
}: {
  enabled: boolean;
  iconsVisibleFrom?: 'xs' | 'sm' | 'md';
}) {
  const { t } = useTranslation();
  useUploadPolling(enabled);
  const { data: unread = 0 } = useUnconfirmedNum(enabled);
  if (!enabled) return null;
  const label = badgeLabel(unread);
  return (
    <>
      <Tooltip label={t('upload.title')}>
        <ActionIcon
          visibleFrom={iconsVisibleFrom}
          variant="subtle"
          size="lg"
          aria-label={t('upload.title')}
          onClick={() => useUploadStore.getState().setUploadOpen(true)}
        >
          <IconFileUpload size={20} />
        </ActionIcon>
      </Tooltip>
      <Indicator
        visibleFrom={iconsVisibleFrom}
        label={label}
        disabled={!label}
        size={16}
        offset={4}
        color="red"
      >
        <ActionIcon
          variant="subtle"
          size="lg"
          aria-label={t('upload.historyTitle')}
          onClick={() => useUploadStore.getState().setHistoryOpen(true)}
        >
          <IconHistory size={20} />
        </ActionIcon>
      </Indicator>
      <UploadDialog />
      <HistoryDrawer />
      <ResultDialog />
      <UploadBanner />
    </>
  );
}
