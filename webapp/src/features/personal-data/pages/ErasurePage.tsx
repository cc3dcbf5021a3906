// /platform-mgt/personal-data: erase a data subject's personal data (docs/personal-data.md).
// The number is asked for, the action confirmed in a dialog that says it cannot be undone,
// and the answer shows the subject id and how many declarations held its values.
import { useState } from 'react';
import { Alert, Button, Card, Code, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconEraser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageLayout } from '@/components/PageLayout';
import { ApiError } from '@/lib/request';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText, fieldErrorsOf } from '@/shared/platform/model/errors';
import {
  useEraseDataSubject,
  type ErasureAnswer,
} from '@/features/personal-data/api/eraseDataSubject';

const FIELDS = ['subject', 'reason'] as const;

export default function ErasurePage() {
  const { t } = useTranslation();
  const erase = useEraseDataSubject();
  const [subject, setSubject] = useState('');
  const [reason, setReason] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<ErasureAnswer | null>(null);

  const send = async () => {
    setError(null);
    setFieldErrors({});
    try {
      const answer = await erase.mutateAsync({
        subject: subject.trim(),
        reason: reason.trim() || undefined,
      });
      setDone(answer);
      setSubject('');
      setReason('');
    } catch (e) {
      const fields = fieldErrorsOf(e, FIELDS);
      setFieldErrors(fields);
      if (Object.keys(fields).length === 0) {
        setError(
          e instanceof ApiError && e.status === 404
            ? t('personalData.notFound')
            : e instanceof ApiError && e.status === 409
              ? t('personalData.alreadyErased')
              : errorText(e),
        );
      }
    }
  };

  const confirm = () => {
    if (!subject.trim()) {
      setFieldErrors({ subject: t('personalData.subjectRequired') });
      return;
    }
    setDone(null);
    modals.openConfirmModal({
      title: t('personalData.confirmTitle'),
      children: <Text size="sm">{t('personalData.confirmText')}</Text>,
      labels: { confirm: t('personalData.erase'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => void send(),
    });
  };

  return (
    <PageLayout title={t('personalData.title')} maw={720}>
      <Text size="sm" c="dimmed">
        {t('personalData.intro')}
      </Text>
      <Card withBorder>
        <Stack>
          <TextInput
            label={t('personalData.subject')}
            description={t('personalData.subjectHint')}
            value={subject}
            maxLength={100}
            error={fieldErrors.subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
            required
          />
          <Textarea
            label={t('personalData.reason')}
            description={t('personalData.reasonHint')}
            value={reason}
            maxLength={500}
            autosize
            minRows={2}
            error={fieldErrors.reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <FormError message={error} />
          <Button
            color="red"
            leftSection={<IconEraser size={16} />}
            loading={erase.isPending}
            onClick={confirm}
            w="fit-content"
          >
            {t('personalData.erase')}
          </Button>
        </Stack>
      </Card>
      {done && (
        <Alert color="green" role="status" title={t('personalData.doneTitle')}>
          <Stack gap={4}>
            <Text size="sm">{t('personalData.doneText', { streams: done.streams })}</Text>
            <Text size="sm">
              {t('personalData.subjectId')}: <Code>{done.subject}</Code>
            </Text>
          </Stack>
        </Alert>
      )}
    </PageLayout>
  );
}
