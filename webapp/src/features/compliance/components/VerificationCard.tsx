// The chain page's background verification: "Verify now" starts `clearway verify` on the
// server (POST /api/v1/audit/verifications); the newest run's progress bar is polled every
// second while it runs, then its result: verified up to, sealed up to, or the first break.
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '@/lib/dates';
import { useStartVerification, useVerifications } from '../api/verifications';
import { percentDone } from '../model/verification';

const STATE_COLOR: Record<string, string> = {
  running: 'blue',
  held: 'green',
  broken: 'red',
  failed: 'orange',
  abandoned: 'gray',
};

export function VerificationCard() {
  const { t } = useTranslation();
  const runs = useVerifications();
  const start = useStartVerification();
  const run = runs.data?.[0];
  const running = run?.state === 'running';
  const none = t('compliance.common.none');
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('compliance.verify.title')}
          </Title>
          <Button
            leftSection={<IconShieldCheck size={16} />}
            loading={start.isPending}
            disabled={running}
            onClick={() => start.mutate()}
          >
            {t('compliance.verify.start')}
          </Button>
        </Group>
        {start.isError && (
          <Alert color="red" role="alert">
            {start.error.message}
          </Alert>
        )}
        {runs.isError && <Alert color="red">{runs.error.message}</Alert>}
        {!run && !runs.isPending && <Text c="dimmed">{t('compliance.verify.never')}</Text>}
        {run && (
          <Stack gap="xs" data-testid="verification" data-state={run.state}>
            <Group gap="sm">
              <Badge color={STATE_COLOR[run.state] ?? 'gray'}>
                {t(`compliance.verify.state.${run.state}`, { defaultValue: run.state })}
              </Badge>
              <Text size="sm" c="dimmed">
                {t('compliance.verify.startedBy', {
                  name: run.startedBy,
                  time: formatTime(run.startedAt),
                })}
              </Text>
            </Group>
            <Progress
              value={percentDone(run)}
              animated={running}
              aria-label={t('compliance.verify.progress')}
            />
            <Text size="sm" data-testid="verification-progress">
              {t('compliance.verify.done', { done: run.done, total: run.total })}
            </Text>
            {!running && (
              <Table>
                <Table.Tbody>
                  <Table.Tr>
                    <Table.Th w={260}>{t('compliance.verify.verifiedTo')}</Table.Th>
                    <Table.Td data-testid="verified-to">{run.verifiedTo ?? none}</Table.Td>
                  </Table.Tr>
                  <Table.Tr>
                    <Table.Th>{t('compliance.verify.sealedTo')}</Table.Th>
                    <Table.Td>
                      {run.sealedTo ?? none}
                      {run.sealsChecked !== null &&
                        ` (${t('compliance.verify.seals', { count: run.sealsChecked })})`}
                    </Table.Td>
                  </Table.Tr>
                  {run.finishedAt && (
                    <Table.Tr>
                      <Table.Th>{t('compliance.verify.finishedAt')}</Table.Th>
                      <Table.Td>{formatTime(run.finishedAt)}</Table.Td>
                    </Table.Tr>
                  )}
                </Table.Tbody>
              </Table>
            )}
            {run.firstBreak && (
              <Alert color="red" role="alert" title={t('compliance.verify.broken')}>
                {t('compliance.verify.breakAt', {
                  position: run.firstBreak.position,
                  kind: run.firstBreak.kind,
                  detail: run.firstBreak.detail,
                })}
              </Alert>
            )}
            {run.error && <Alert color="orange">{run.error}</Alert>}
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
