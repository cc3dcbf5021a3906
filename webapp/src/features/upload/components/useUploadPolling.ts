// Polls the status of the uploaded files every 3 s while any is processing; resumes from the
// stored session keys after a reload. On stop: refresh the unread count and, after 5 s,
// show the banner. A failed poll is shown as a warning and polling goes on.
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showMessage } from '@/lib/message';
import { ReadBehindError } from '@/lib/request';
import { getUploadStatus } from '../api/getUploadStatus';
import { uploadKeys } from '../api/keys';
import { BANNER_DELAY_MS, POLL_INTERVAL_MS, keepPolling } from '../model/polling';
import { useUploadStore } from '../model/uploadStore';

export function useUploadPolling(enabled: boolean) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const polling = useUploadStore((s) => s.polling);
  const fileIds = useUploadStore((s) => s.fileIds);

  useEffect(() => {
    if (enabled) useUploadStore.getState().resume();
  }, [enabled]);

  useEffect(() => {
    if (!enabled || !polling || fileIds.length === 0) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const tick = async () => {
      try {
        const records = await getUploadStatus(fileIds);
        if (cancelled) return;
        useUploadStore.getState().setRecords(records);
        if (!keepPolling(records, fileIds.length)) {
          useUploadStore.getState().stop();
          void client.invalidateQueries({ queryKey: uploadKeys.all });
          // Not cleared with the effect: stopping re-runs it.
          setTimeout(() => useUploadStore.getState().showBanner(), BANNER_DELAY_MS);
          return;
        }
      } catch (e) {
        if (cancelled) return;
        // An answer still catching up with the confirm or upload is simply polled again.
        if (!(e instanceof ReadBehindError)) {
          showMessage('warning', e instanceof Error ? e.message : t('upload.pollFailed'));
        }
      }
      timer = setTimeout(() => void tick(), POLL_INTERVAL_MS);
    };
    timer = setTimeout(() => void tick(), POLL_INTERVAL_MS);
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [enabled, polling, fileIds, client, t]);
}
