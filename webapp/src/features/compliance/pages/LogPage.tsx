// /compliance/log: the whole event log (GET /api/v1/audit/events), newest first, with its
// filters in the URL, keyset paging ("older" passes the answer's cursor as `before`, "newer"
// goes back one cursor) and each row's payload shown as fields. "Export" downloads the log with
// the current filters as a verifiable export file (POST /api/v1/audit/exports), offered only
// to whoever holds audit:export (the file carries payloads unmasked).
import { Fragment, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import {
  IconChevronLeft,
  IconChevronRight,
  IconDownload,
  IconFileSpreadsheet,
  IconPrinter,
  IconSearch,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { Permission } from '@/components/Permission';
import { DateTimePicker } from '@mantine/dates';
import { formatTime } from '@/lib/dates';
import { getEvents, useAuditEvents } from '@/features/compliance/api/audit';
import { CSV_MAX_EVENTS, logCsv } from '@/features/compliance/model/report';
import { saveBlob } from '@/lib/download';
import { exportAuditLog } from '@/features/compliance/api/exportAuditLog';
import type { AuditEvent } from '@/features/compliance/api/types';
import { compactParams, fromLocalInput, toLocalInput } from '@/features/compliance/model/fields';
import { FieldList } from '@/features/compliance/components/FieldList';
import { EventName } from '@/features/compliance/components/EventName';
import { EventChanges } from '@/features/compliance/components/EventChanges';
import './log-print.css';

/**
 * The date picker every screen uses (YYYY-MM-DD, Beijing time) over the field's Shanghai
 * clock text (`2026-11-25T12:00:00.000`): `2026-11-25 12:00:00`, or null when empty.
 */
function pickerValue(local: string): string | null {
  return local ? local.replace('T', ' ').slice(0, 19) : null;
}

/** The picker's `2026-11-25 12:00:00` as the field's `2026-11-25T12:00:00`, or ''. */
function fromPickerValue(value: string | null): string {
  return value ? value.trim().replace(' ', 'T').slice(0, 19) : '';
}

const FILTERS = [
  'streamType',
  'eventType',
  'actor',
  'customerId',
  'trackingNumber',
  'from',
  'to',
  // '1': show the log's own reads (the `audit_access` streams), hidden by default.
  'reads',
] as const;
type Filter = (typeof FILTERS)[number];
const STREAM_TYPES = [
  'declaration',
  'account',
  'customer',
  'clearance_exception',
  'trade_company',
  'product',
  'mapping_scheme',
  'role',
  'port',
  'reference_table',
  'upload',
  'audit_access',
];

/** The URL's filters as the server takes them, the log's own reads hidden unless asked for. */
function exportFilters(filters: Record<Filter, string>) {
  const { reads, ...rest } = filters;
  return { ...compactParams(rest), ...(reads === '1' ? {} : { hideReads: true }) };
}

/** The same as query parameters (the log's GET). */
function serverFilters(filters: Record<Filter, string>): Record<string, string> {
  const { hideReads, ...rest } = exportFilters(filters);
  return { ...rest, ...(hideReads ? { hideReads: 'true' } : {}) };
}

const CSV_COLUMNS = [
  'position',
  'time',
  'actor',
  'role',
  'event',
  'eventType',
  'stream',
  'streamId',
  'fields',
] as const;

export default function LogPage() {
  const [search] = useSearchParams();
  // New filters (also by the browser's back button) start again at the newest page.
  return <LogView key={search.toString()} />;
}

function LogView() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const filters = Object.fromEntries(FILTERS.map((f) => [f, search.get(f) ?? ''])) as Record<
    Filter,
    string
  >;
  // The cursors of the pages before this one ("newer" pops one).
  const [cursors, setCursors] = useState<(number | null)[]>([]);
  const [before, setBefore] = useState<number | null>(null);
  const params = { ...serverFilters(filters), ...(before ? { before } : {}) };
  const query = useAuditEvents(params);
  const [open, setOpen] = useState<Record<number, boolean>>({});
  const [exporting, setExporting] = useState(false);
  const [exportError, setExportError] = useState<string | null>(null);
  const [csvBusy, setCsvBusy] = useState(false);
  const downloadCsv = async () => {
    setCsvBusy(true);
    setExportError(null);
    try {
      const events: AuditEvent[] = [];
      let cursor: number | null = null;
      do {
        const page = await getEvents({
          ...serverFilters(filters),
          pageSize: 500,
          ...(cursor ? { before: cursor } : {}),
        });
        events.push(...page.records);
        cursor = page.nextBefore;
      } while (cursor !== null && events.length < CSV_MAX_EVENTS);
      const csv = logCsv(
        events.slice(0, CSV_MAX_EVENTS),
        CSV_COLUMNS.map((c) => t(`compliance.log.csv.${c}`)),
        (type) => t(`compliance.event.${type}`, { defaultValue: type }),
        (role) => t(`role.${role}`, { defaultValue: role }),
      );
      saveBlob(new Blob([csv], { type: 'text/csv;charset=utf-8' }), 'event-log.csv');
    } catch (e) {
      setExportError(e instanceof Error ? e.message : String(e));
    } finally {
      setCsvBusy(false);
    }
  };
  const exportLog = () => {
    setExporting(true);
    setExportError(null);
    exportAuditLog(exportFilters(filters))
      .catch((e: unknown) => setExportError(e instanceof Error ? e.message : String(e)))
      .finally(() => setExporting(false));
  };

  const apply = (next: Record<Filter, string>) => setSearch(compactParams(next));
  const records = query.data?.records ?? [];
  const nextBefore = query.data?.nextBefore ?? null;

  return (
    <PageLayout
      title={t('compliance.log.title')}
      filters={<LogFilters initial={filters} onSearch={apply} />}
      actions={
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconFileSpreadsheet size={16} />}
            loading={csvBusy}
            onClick={() => void downloadCsv()}
            title={t('compliance.log.csvHint')}
          >
            {t('compliance.log.csvButton')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} />}
            onClick={() => window.print()}
          >
            {t('compliance.log.print')}
          </Button>
          <Permission code="audit:export">
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              loading={exporting}
              onClick={exportLog}
              title={t('compliance.log.exportHint')}
            >
              {t('compliance.log.export')}
            </Button>
          </Permission>
        </Group>
      }
    >
      {query.isError && (
        <Alert color="red" role="alert">
          {query.error.message}
        </Alert>
      )}
      {exportError && (
        <Alert color="red" role="alert" withCloseButton onClose={() => setExportError(null)}>
          {exportError}
        </Alert>
      )}
      <Table
        striped
        highlightOnHover
        fz="sm"
        aria-label={t('compliance.log.title')}
        className="event-log-page"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('compliance.log.col.position')}</Table.Th>
            <Table.Th>{t('compliance.log.col.time')}</Table.Th>
            <Table.Th>{t('compliance.log.col.actor')}</Table.Th>
            <Table.Th>{t('compliance.log.col.role')}</Table.Th>
            <Table.Th>{t('compliance.log.col.eventType')}</Table.Th>
            <Table.Th>{t('compliance.log.col.stream')}</Table.Th>
            <Table.Th>{t('compliance.log.col.correlation')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {records.map((e) => (
            <Fragment key={e.position}>
              <LogRow
                event={e}
                open={!!open[e.position]}
                onToggle={() => setOpen((o) => ({ ...o, [e.position]: !o[e.position] }))}
              />
              {open[e.position] && (
                <Table.Tr data-payload-of={e.position}>
                  <Table.Td colSpan={8}>
                    <EventChanges event={e} />
                    <FieldList value={e.payload} empty={t('compliance.common.empty')} />
                  </Table.Td>
                </Table.Tr>
              )}
            </Fragment>
          ))}
          {!query.isFetching && records.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={8}>
                <Text c="dimmed" ta="center">
                  {t('compliance.log.noEvents')}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end" gap="sm">
        <Text size="sm" c="dimmed">
          {t('compliance.log.page', { page: cursors.length + 1 })}
        </Text>
        <Button
          variant="default"
          leftSection={<IconChevronLeft size={16} />}
          disabled={cursors.length === 0 || query.isFetching}
          onClick={() => {
            setBefore(cursors[cursors.length - 1] ?? null);
            setCursors((c) => c.slice(0, -1));
          }}
        >
          {t('compliance.log.newer')}
        </Button>
        <Button
          variant="default"
          rightSection={<IconChevronRight size={16} />}
          disabled={nextBefore === null || query.isFetching}
          onClick={() => {
            setCursors((c) => [...c, before]);
            setBefore(nextBefore);
          }}
        >
          {t('compliance.log.older')}
        </Button>
      </Group>
    </PageLayout>
  );
}

function LogRow({
  event: e,
  open,
  onToggle,
}: {
  event: AuditEvent;
  open: boolean;
  onToggle: () => void;
}) {
  const { t } = useTranslation();
  const m = e.metadata ?? {};
  const role = m.actorRole ?? '';
  return (
    <Table.Tr data-position={e.position}>
      <Table.Td>{e.position}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(e.recordedAt)}</Table.Td>
      <Table.Td>{m.actorName ?? t('compliance.common.none')}</Table.Td>
      <Table.Td>
        {role ? t(`role.${role}`, { defaultValue: role }) : t('compliance.common.none')}
      </Table.Td>
      <Table.Td>
        <EventName type={e.eventType} />
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          <Anchor
            component={Link}
            to={`/compliance/stream?id=${encodeURIComponent(e.streamId)}`}
            size="sm"
          >
            {e.streamType} · v{e.streamVersion}
          </Anchor>
          <Text size="xs" c="dimmed" ff="monospace">
            {e.streamId}
          </Text>
        </Stack>
      </Table.Td>
      <Table.Td>
        <Stack gap={0}>
          <Text size="xs" ff="monospace">
            {m.correlationId ?? t('compliance.common.none')}
          </Text>
          {m.causationId && (
            <Text size="xs" ff="monospace" c="dimmed">
              ← {m.causationId}
            </Text>
          )}
        </Stack>
      </Table.Td>
      <Table.Td>
        <Button size="compact-xs" variant="subtle" onClick={onToggle} aria-expanded={open}>
          {open ? t('compliance.log.hidePayload') : t('compliance.log.payload')}
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}

function LogFilters({
  initial,
  onSearch,
}: {
  initial: Record<Filter, string>;
  onSearch: (filters: Record<Filter, string>) => void;
}) {
  const { t } = useTranslation();
  // The time range is kept as ISO in the URL and shown in the browser's time.
  const [draft, setDraft] = useState({
    ...initial,
    from: initial.from ? toLocalInput(initial.from) : '',
    to: initial.to ? toLocalInput(initial.to) : '',
  });
  const set = (key: Filter, value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const text = (key: Filter, w = 160) => (
    <TextInput
      label={t(`compliance.log.${key}`)}
      value={draft[key]}
      maxLength={100}
      onChange={(e) => set(key, e.currentTarget.value)}
      w={w}
    />
  );
  const empty = Object.fromEntries(FILTERS.map((f) => [f, ''])) as Record<Filter, string>;
  return (
    <Group
      component="form"
      align="flex-end"
      gap="sm"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch({ ...draft, from: fromLocalInput(draft.from), to: fromLocalInput(draft.to) });
      }}
    >
      <Select
        label={t('compliance.log.streamType')}
        data={[
          { value: '', label: t('compliance.log.allStreamTypes') },
          ...STREAM_TYPES.map((s) => ({ value: s, label: s })),
        ]}
        value={draft.streamType}
        onChange={(v) => set('streamType', v ?? '')}
        allowDeselect={false}
        w={170}
      />
      {text('eventType', 200)}
      {text('actor')}
      {text('customerId', 200)}
      {text('trackingNumber')}
      <DateTimePicker
        withSeconds
        clearable
        valueFormat="YYYY-MM-DD HH:mm:ss"
        label={t('compliance.log.from')}
        description={t('compliance.log.zoneHint')}
        value={pickerValue(draft.from)}
        onChange={(v) => set('from', fromPickerValue(v))}
        w={210}
      />
      <DateTimePicker
        withSeconds
        clearable
        valueFormat="YYYY-MM-DD HH:mm:ss"
        label={t('compliance.log.to')}
        description={t('compliance.log.zoneHint')}
        value={pickerValue(draft.to)}
        onChange={(v) => set('to', fromPickerValue(v))}
        w={210}
      />
      <Checkbox
        label={t('compliance.log.showReads')}
        checked={draft.reads === '1'}
        onChange={(e) => set('reads', e.currentTarget.checked ? '1' : '')}
        mb={8}
      />
      <Button type="submit" leftSection={<IconSearch size={16} />}>
        {t('compliance.log.search')}
      </Button>
      <Button variant="default" onClick={() => onSearch(empty)}>
        {t('compliance.log.reset')}
      </Button>
    </Group>
  );
}
