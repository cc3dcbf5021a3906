// The detail page's customs exchange card (beside the history): the timeline, the download
// of each message for staff who may read them, and a re-send for staff holding
// `customs:management` while the declaration waits on customs (status 2).
import { useState } from 'react';
import { Button, Card, Group, Loader, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePermission } from '@/lib/permissions';
import { showMessage } from '@/lib/message';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CustomsTimeline } from '@/shared/customs/components/CustomsTimeline';
import { downloadCustomsMessage } from '@/shared/customs/api/downloadCustomsMessage';
import { useResendCustomsMessage } from '@/shared/customs/api/resendCustomsMessage';
import type { CustomsTimeline as Timeline } from '@/shared/customs/model/types';

export interface CustomsCardProps {
  declarationId: string;
  status: number;
  staff: boolean;
  timeline: Timeline | undefined;
  loading: boolean;
  error: Error | null;
}

export function CustomsCard({
  declarationId,
  status,
  staff,
  timeline,
  loading,
  error,
}: CustomsCardProps) {
  const { t } = useTranslation();
  const manage = usePermission('customs:management');
  const read = usePermission(['customs:management', 'declarations:management']);
  const resend = useResendCustomsMessage();
  const [asking, setAsking] = useState(false);
  const canResend = staff && manage && status === 2;
  return (
    <Card withBorder padding="md" component="section" aria-label={t('customs.timeline.title')}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={2} size="h5">
          {t('customs.timeline.title')}
        </Title>
        {canResend && (
          <Button
            size="compact-sm"
            variant="default"
            leftSection={<IconRefresh size={14} />}
            onClick={() => setAsking(true)}
          >
            {t('customs.timeline.resendButton')}
          </Button>
        )}
      </Group>
      {loading ? (
        <Loader size="sm" />
      ) : error ? (
        <Text size="sm" c="red" role="alert">
          {t('customs.timeline.loadFailed', { message: error.message })}
        </Text>
      ) : (
        <CustomsTimeline
          entries={timeline?.entries ?? []}
          onDownload={
            staff && read
              ? (copNo) => void downloadCustomsMessage(declarationId, copNo).catch(() => undefined)
              : undefined
          }
        />
      )}
      {asking && (
        <ConfirmDialog
          title={t('customs.timeline.resendTitle')}
          message={t('customs.timeline.resendText')}
          confirmLabel={t('customs.timeline.resendButton')}
          withReason
          reasonLabel={t('customs.timeline.resendReason')}
          onClose={() => setAsking(false)}
          onConfirm={async ({ reason }) => {
            await resend.mutateAsync({ id: declarationId, reason });
            showMessage('success', t('customs.timeline.resendDone'));
          }}
        />
      )}
    </Card>
  );
}
