// Re-send a declared declaration's message, found by its tracking number.
import { useState } from 'react';
import { Alert, Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { getDeclarations } from '@/shared/declarations/api/getDeclarations';
import { useResendCustomsMessage } from '@/shared/customs/api/resendCustomsMessage';
import { showMessage } from '@/lib/message';

export function ResendByTracking() {
  const { t } = useTranslation();
  const resend = useResendCustomsMessage();
  const [tracking, setTracking] = useState('');
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async () => {
    const number = tracking.trim();
    if (!number) return;
    setBusy(true);
    setProblem(null);
    try {
      const page = await getDeclarations({ trackingNumber: number, status: 2, pageSize: 2 });
      if (page.records.length !== 1) {
        setProblem(t('customs.channel.notFound'));
        return;
      }
      await resend.mutateAsync({ id: page.records[0].id, reason });
      showMessage('success', t('customs.channel.resendDone'));
      setTracking('');
      setReason('');
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card withBorder padding="md" component="section" aria-label={t('customs.channel.resendTitle')}>
      <Title order={2} size="h5" mb={4}>
        {t('customs.channel.resendTitle')}
      </Title>
      <Text size="xs" c="dimmed" mb="sm">
        {t('customs.channel.resendHint')}
      </Text>
      <Stack gap="xs">
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('customs.channel.trackingNumber')}
            value={tracking}
            onChange={(e) => setTracking(e.currentTarget.value)}
            w={220}
          />
          <TextInput
            label={t('customs.timeline.resendReason')}
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.currentTarget.value)}
            style={{ flex: 1, minWidth: 180 }}
          />
          <Button
            leftSection={<IconRefresh size={14} />}
            loading={busy}
            disabled={!tracking.trim()}
            onClick={() => void run()}
          >
            {t('customs.channel.resend')}
          </Button>
        </Group>
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}
