// /compliance/stream?id=: one stream's events, its state as of a chosen time (a date-time
// picker, or "as of here" on an event) shown as fields, and the diff between two times.
import { useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { formatTime } from '@/lib/dates';
import { useStreamAsOf, useStreamDiff } from '@/features/compliance/api/audit';
import type { AuditEvent } from '@/features/compliance/api/types';
import {
  endOfMillisecond,
  fromLocalInput,
  leafText,
  toLocalInput,
} from '@/features/compliance/model/fields';
import { FieldList } from '@/features/compliance/components/FieldList';
import { EventName } from '@/features/compliance/components/EventName';
import { EventChanges } from '@/features/compliance/components/EventChanges';

export default function StreamPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const id = (search.get('id') ?? '').trim();
  // The as-of instant sent (ISO; '' = now) and the picker's text (browser time).
  const [asOf, setAsOf] = useState('');
  const [asOfInput, setAsOfInput] = useState('');
  const query = useStreamAsOf(id, asOf);
  const timeline = query.data?.timeline ?? [];

  const back = (
    <Anchor component={Link} to="/compliance/log" size="sm">
      {t('compliance.stream.backToLog')}
    </Anchor>
  );
  if (!id) {
    return (
      <PageLayout title={t('compliance.stream.title')} back={back}>
        <Alert color="yellow">{t('compliance.stream.missingId')}</Alert>
      </PageLayout>
    );
  }
  const first = timeline[0];
  const showAt = (iso: string) => {
    setAsOf(iso);
    setAsOfInput(iso ? toLocalInput(iso) : '');
  };

  return (
    <PageLayout
      title={t('compliance.stream.title')}
      back={back}
      badges={first && <Badge variant="light">{first.streamType}</Badge>}
      subtitle={
        <Text size="sm" c="dimmed" ff="monospace">
          {id}
        </Text>
      }
    >
      {query.isError && (
        <Alert color="red" role="alert">
          {query.error.message}
        </Alert>
      )}
      <Card withBorder>
        <Stack gap="sm">
          <Group align="flex-end" gap="sm">
            <TextInput
              type="datetime-local"
              step={0.001}
              label={t('compliance.stream.asOf')}
              description={t('compliance.stream.asOfHint')}
              value={asOfInput}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setAsOfInput(v);
                const iso = endOfMillisecond(fromLocalInput(v));
                if (iso || !v) setAsOf(iso);
              }}
              w={260}
            />
            <Button variant="default" onClick={() => showAt('')}>
              {t('compliance.stream.asOfNow')}
            </Button>
          </Group>
          {query.data && (
            <section aria-label={t('compliance.stream.state')}>
              <Title order={2} size="h5" mb="xs">
                {t('compliance.stream.stateAt', {
                  time: formatTime(query.data.asOf) || query.data.asOf,
                  version: query.data.version,
                })}
              </Title>
              {query.data.version === 0 ? (
                <Text c="dimmed">{t('compliance.stream.notBegun')}</Text>
              ) : (
                <FieldList value={query.data.state} empty={t('compliance.common.empty')} />
              )}
            </section>
          )}
        </Stack>
      </Card>

      <Title order={2} size="h4">
        {t('compliance.stream.timeline')}
      </Title>
      <Timeline events={timeline} asOf={asOf} onAsOf={showAt} />

      {timeline.length > 0 && (
        <DiffPanel
          id={id}
          initialFrom={timeline[0].recordedAt}
          initialTo={timeline[timeline.length - 1].recordedAt}
        />
      )}
    </PageLayout>
  );
}

function Timeline({
  events,
  asOf,
  onAsOf,
}: {
  events: AuditEvent[];
  asOf: string;
  onAsOf: (iso: string) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Record<number, boolean>>({});
  return (
    <Table fz="sm" aria-label={t('compliance.stream.timeline')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>v</Table.Th>
          <Table.Th>{t('compliance.log.col.time')}</Table.Th>
          <Table.Th>{t('compliance.log.col.eventType')}</Table.Th>
          <Table.Th>{t('compliance.log.col.actor')}</Table.Th>
          <Table.Th>{t('compliance.log.payload')}</Table.Th>
          <Table.Th />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {events.map((e) => {
          const later = asOf !== '' && new Date(e.recordedAt) > new Date(asOf);
          return (
            <Table.Tr
              key={e.position}
              data-version={e.streamVersion}
              style={later ? { opacity: 0.45 } : undefined}
            >
              <Table.Td>{e.streamVersion}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(e.recordedAt)}</Table.Td>
              <Table.Td>
                <EventName type={e.eventType} />
              </Table.Td>
              <Table.Td>
                {e.metadata?.actorName ?? t('compliance.common.none')}
                {e.metadata?.actorRole && (
                  <Text size="xs" c="dimmed">
                    {t(`role.${e.metadata.actorRole}`, { defaultValue: e.metadata.actorRole })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  aria-expanded={!!open[e.position]}
                  onClick={() => setOpen((o) => ({ ...o, [e.position]: !o[e.position] }))}
                >
                  {open[e.position] ? t('compliance.log.hidePayload') : t('compliance.log.payload')}
                </Button>
                {open[e.position] && (
                  <>
                    <EventChanges event={e} />
                    <FieldList value={e.payload} empty={t('compliance.common.empty')} />
                  </>
                )}
              </Table.Td>
              <Table.Td>
                <Button size="compact-xs" variant="light" onClick={() => onAsOf(e.recordedAt)}>
                  {t('compliance.stream.asOfHere')}
                </Button>
              </Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}

function DiffPanel({
  id,
  initialFrom,
  initialTo,
}: {
  id: string;
  initialFrom: string;
  initialTo: string;
}) {
  const { t } = useTranslation();
  const [fromInput, setFromInput] = useState(toLocalInput(initialFrom));
  const [toInput, setToInput] = useState(toLocalInput(initialTo));
  // What was asked for (ISO); empty until "compare".
  const [asked, setAsked] = useState<{ from: string; to: string }>({ from: '', to: '' });
  const diff = useStreamDiff(id, asked.from, asked.to);
  const changes = diff.data ?? [];
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('compliance.stream.diff')}
        </Title>
        <Group
          component="form"
          align="flex-end"
          gap="sm"
          onSubmit={(e) => {
            e.preventDefault();
            setAsked({
              from: endOfMillisecond(fromLocalInput(fromInput)),
              to: endOfMillisecond(fromLocalInput(toInput)),
            });
          }}
        >
          <TextInput
            type="datetime-local"
            step={0.001}
            label={t('compliance.stream.diffFrom')}
            description={t('compliance.log.zoneHint')}
            value={fromInput}
            onChange={(e) => setFromInput(e.currentTarget.value)}
            w={250}
          />
          <TextInput
            type="datetime-local"
            step={0.001}
            label={t('compliance.stream.diffTo')}
            description={t('compliance.log.zoneHint')}
            value={toInput}
            onChange={(e) => setToInput(e.currentTarget.value)}
            w={250}
          />
          <Button type="submit" variant="default">
            {t('compliance.stream.compare')}
          </Button>
        </Group>
        {diff.isError && (
          <Alert color="red" role="alert">
            {diff.error.message}
          </Alert>
        )}
        {diff.isSuccess && changes.length === 0 && (
          <Text c="dimmed">{t('compliance.stream.noChanges')}</Text>
        )}
        {changes.length > 0 && (
          <Table fz="sm" aria-label={t('compliance.stream.diff')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('compliance.stream.col.field')}</Table.Th>
                <Table.Th>{t('compliance.stream.col.old')}</Table.Th>
                <Table.Th />
                <Table.Th>{t('compliance.stream.col.new')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((c) => (
                <Table.Tr key={c.field} data-field={c.field}>
                  <Table.Td ff="monospace">{c.field}</Table.Td>
                  <Table.Td>{leafText(c.from)}</Table.Td>
                  <Table.Td>→</Table.Td>
                  <Table.Td>{leafText(c.to)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
