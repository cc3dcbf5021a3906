// `/platform-mgt/customs`: the customs channel at a glance for staff holding
// `customs:management` (docs/customs.md): messages waiting and written today, receipts today
// by code, the inbox backlog and its oldest file's age, the files in failed/ with their
// reason (re-import), the anomalies to settle (attach to a declaration or dismiss, with a
// note), and a re-send by tracking number.
import { useState, type ReactNode } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { formatDateTime } from '@/lib/dates';
import { declarationDetailPath } from '@/lib/declarations';
import { showMessage } from '@/lib/message';
import { ReceiptBadge } from '@/shared/customs/components/ReceiptBadge';
import { ageParts } from '@/shared/customs/model/receipts';
import { useCustomsSummary } from '../api/getCustomsSummary';
import {
  useCustomsAnomalies,
  type AnomalyState,
  type CustomsAnomaly,
} from '../api/getCustomsAnomalies';
import { useReimportCustomsFile } from '../api/reimportCustomsFile';
import { channelKeys } from '../api/keys';
import { SettleDialog } from '../components/SettleDialog';
import { ResendByTracking } from '../components/ResendByTracking';

const STATUS_COLORS: Record<string, string> = { ok: 'teal', degraded: 'red', off: 'gray' };

function Figure({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) {
  return (
    <Card withBorder padding="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Card>
  );
}

/**
 * The declaration an anomaly belongs to (the one it was attached to, else the one its
 * receipt named), linked to its detail when the answer names its type; nothing when the
 * anomaly knows no declaration.
 */
function AnomalyDeclaration({ anomaly: a }: { anomaly: CustomsAnomaly }) {
  const { t } = useTranslation();
  const id = a.settledDeclarationId ?? a.declarationId;
  if (!id) return null;
  const label = a.trackingNumber ?? id;
  return (
    <Text size="xs">
      {t('customs.channel.anomalyDeclaration')}{' '}
      {a.declarationType ? (
        <Anchor
          component={Link}
          to={declarationDetailPath('staff', a.declarationType, id)}
          size="xs"
          fw={500}
          data-anomaly-declaration={id}
        >
          {label}
        </Anchor>
      ) : (
        <Text span size="xs" ff="monospace">
          {label}
        </Text>
      )}
    </Text>
  );
}

export default function CustomsChannelPage() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const summary = useCustomsSummary();
  const [state, setState] = useState<AnomalyState>('open');
  const anomalies = useCustomsAnomalies(state);
  const reimport = useReimportCustomsFile();
  const [settling, setSettling] = useState<{
    anomaly: CustomsAnomaly;
    action: 'attach' | 'dismiss';
  } | null>(null);

  const age = (secs: number | null | undefined) => {
    if (secs === null || secs === undefined) return '';
    const { unit, count } = ageParts(secs);
    return unit === 'days'
      ? t('customs.holds.ageDays', { count })
      : secs < 3600
        ? `${Math.floor(secs / 60)} min`
        : t('customs.holds.ageHours', { count });
  };

  const s = summary.data;
  return (
    <PageLayout
      title={t('customs.channel.title')}
      badges={
        s && (
          <Badge color={STATUS_COLORS[s.status] ?? 'gray'} size="lg" variant="light">
            {t(`customs.channel.status.${s.status}`, { defaultValue: s.status })}
          </Badge>
        )
      }
      actions={
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          onClick={() => void client.invalidateQueries({ queryKey: channelKeys.all })}
          loading={summary.isFetching}
        >
          {t('customs.channel.refresh')}
        </Button>
      }
    >
      {summary.isLoading && <Loader />}
      {summary.isError && (
        <Alert color="red" role="alert">
          {(summary.error as Error).message}
        </Alert>
      )}
      {s && s.channel === 'off' && (
        <Alert color="gray" variant="light">
          {t('customs.channel.off')}
        </Alert>
      )}
      {s?.problem && (
        <Alert color="red" variant="light" role="alert">
          {s.problem}
        </Alert>
      )}
      {s && (
        <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
          <Figure label={t('customs.channel.waiting')} value={s.waiting} />
          <Figure label={t('customs.channel.writtenToday')} value={s.writtenToday} />
          <Figure label={t('customs.channel.refused')} value={s.refused} />
          <Figure
            label={t('customs.channel.backlog')}
            value={s.inboxBacklog}
            hint={
              s.inboxOldestSecs !== null && s.inboxOldestSecs !== undefined
                ? t('customs.channel.oldest', { age: age(s.inboxOldestSecs) })
                : undefined
            }
          />
          <Figure label={t('customs.channel.openAnomalies')} value={s.openAnomalies} />
        </SimpleGrid>
      )}
      {s && (
        <Card
          withBorder
          padding="md"
          component="section"
          aria-label={t('customs.channel.receiptsToday')}
        >
          <Title order={2} size="h5" mb="sm">
            {t('customs.channel.receiptsToday')}
          </Title>
          {s.receiptsToday.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('customs.channel.noReceiptsToday')}
            </Text>
          ) : (
            <Group gap="sm" wrap="wrap">
              {s.receiptsToday.map((c) => (
                <Group key={c.code} gap={4} wrap="nowrap" data-code-count={c.code}>
                  <ReceiptBadge code={c.code} />
                  <Text fw={600}>{c.count}</Text>
                </Group>
              ))}
            </Group>
          )}
        </Card>
      )}
      {s && (
        <Card
          withBorder
          padding="md"
          component="section"
          aria-label={t('customs.channel.failedTitle')}
        >
          <Title order={2} size="h5" mb="sm">
            {t('customs.channel.failedTitle')}
          </Title>
          {s.failed.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('customs.channel.failedEmpty')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={520}>
              <Table striped aria-label={t('customs.channel.failedTitle')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('customs.channel.fileName')}</Table.Th>
                    <Table.Th>{t('customs.channel.failedReason')}</Table.Th>
                    <Table.Th>{t('customs.channel.failedAt')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {s.failed.map((f) => (
                    <Table.Tr key={f.name}>
                      <Table.Td>
                        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                          {f.name}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs" style={{ whiteSpace: 'pre-wrap' }}>
                          {f.reason}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="xs">{formatDateTime(f.failedAt ?? null)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="compact-sm"
                          variant="default"
                          loading={reimport.isPending && reimport.variables === f.name}
                          onClick={() =>
                            reimport.mutate(f.name, {
                              onSuccess: () =>
                                showMessage(
                                  'success',
                                  t('customs.channel.reimportDone', { name: f.name }),
                                ),
                              onError: (e) => showMessage('error', e.message),
                            })
                          }
                        >
                          {t('customs.channel.reimport')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
      )}
      <Card
        withBorder
        padding="md"
        component="section"
        aria-label={t('customs.channel.anomaliesTitle')}
      >
        <Group justify="space-between" mb="sm" wrap="wrap">
          <Title order={2} size="h5">
            {t('customs.channel.anomaliesTitle')}
          </Title>
          <Switch
            size="sm"
            label={t('customs.channel.showSettled')}
            checked={state === 'all'}
            onChange={(e) => setState(e.currentTarget.checked ? 'all' : 'open')}
          />
        </Group>
        {anomalies.isError ? (
          <Text size="sm" c="red" role="alert">
            {(anomalies.error as Error).message}
          </Text>
        ) : (anomalies.data?.records.length ?? 0) === 0 ? (
          <Text size="sm" c="dimmed">
            {anomalies.isLoading ? '…' : t('customs.channel.anomaliesEmpty')}
          </Text>
        ) : (
          <Stack gap="sm">
            {anomalies.data?.records.map((a) => (
              <Card key={a.id} withBorder padding="sm" data-anomaly={a.id}>
                <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                    <Group gap={6} wrap="wrap">
                      <Badge color="orange" variant="light" style={{ textTransform: 'none' }}>
                        {t(`customs.channel.kind.${a.kind}`, { defaultValue: a.kind })}
                      </Badge>
                      <ReceiptBadge code={a.channel} size="xs" />
                      <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {a.copNo}
                      </Text>
                    </Group>
                    <Text size="sm">{a.reason}</Text>
                    <AnomalyDeclaration anomaly={a} />
                    <Text size="xs" c="dimmed">
                      {t('customs.timeline.noticeDate')} {formatDateTime(a.noticeDate)} ·{' '}
                      {t('customs.channel.anomalyRecorded')} {formatDateTime(a.recordedAt)} ·{' '}
                      {a.source}
                    </Text>
                    {a.settledAt && (
                      <Text size="xs" c="teal">
                        {t('customs.channel.settled')}: {a.settledAction} · {a.settledNote} ·{' '}
                        {a.settledBy} · {formatDateTime(a.settledAt)}
                      </Text>
                    )}
                  </Stack>
                  {!a.settledAt && (
                    <Group gap="xs" wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => setSettling({ anomaly: a, action: 'attach' })}
                      >
                        {t('customs.channel.attach')}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="default"
                        color="red"
                        onClick={() => setSettling({ anomaly: a, action: 'dismiss' })}
                      >
                        {t('customs.channel.dismiss')}
                      </Button>
                    </Group>
                  )}
                </Group>
              </Card>
            ))}
          </Stack>
        )}
      </Card>
      <ResendByTracking />
      {settling && (
        <SettleDialog
          anomaly={settling.anomaly}
          action={settling.action}
          onClose={() => setSettling(null)}
          onDone={() => {
            setSettling(null);
            showMessage('success', t('customs.channel.settleDone'));
          }}
        />
      )}
    </PageLayout>
  );
}
