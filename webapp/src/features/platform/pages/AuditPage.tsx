// /platform-mgt/audit: the administration audit log (GET /api/v1/admin/audit) with its
// filters in the URL (subject type, subject id, actor, action, keyword, YYYYMMDD range).
import { useMemo, useState } from 'react';
import { Autocomplete, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { DataTable, dataTableColumns, useTableSearchParams } from '@/components/DataTable';
import platformZh from '@/locales/platform.zh';
import { useAudit } from '@/features/platform/api/getAudit';
import type { AuditRecord } from '@/shared/platform/api/types';
import { FormError } from '@/shared/platform/components/FormError';
import { formatTime, isoToYmd, ymdToIso } from '@/lib/dates';
import { summarizeChanges } from '@/features/platform/model/audit';
import { errorText } from '@/shared/platform/model/errors';
import { PageLayout } from '@/components/PageLayout';

const FILTERS = [
  'subjectType',
  'subjectId',
  'actor',
  'action',
  'keyword',
  'fromDate',
  'toDate',
] as const;
type Filter = (typeof FILTERS)[number];
const SUBJECT_TYPES = ['account', 'role', 'port', 'customer'] as const;

const col = dataTableColumns<AuditRecord>();

export default function AuditPage() {
  const { t } = useTranslation();
  const url = useTableSearchParams({ filterKeys: FILTERS });
  const query = useAudit(url.apiParams);
  const empty = t('platform.audit.empty');
  const actionLabel = (action: string) =>
    t(`platform.audit.events.${action}`, { defaultValue: action });

  const columns = useMemo(
    () => [
      col.accessor('time', {
        header: t('platform.audit.col.time'),
        cell: ({ getValue }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatTime(getValue())}
          </Text>
        ),
      }),
      col.accessor('actorName', {
        header: t('platform.audit.col.actor'),
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{row.original.actorName ?? t('platform.common.none')}</Text>
            {row.original.actorRole && (
              <Text size="xs" c="dimmed">
                {t(`platform.roleName.${row.original.actorRole}`, {
                  defaultValue: row.original.actorRole,
                })}
              </Text>
            )}
          </Stack>
        ),
      }),
      col.accessor('subjectLabel', {
        header: t('platform.audit.col.subject'),
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{row.original.subjectLabel || row.original.subjectId}</Text>
            <Text size="xs" c="dimmed">
              {t(`platform.audit.subjectTypes.${row.original.subjectType}`, {
                defaultValue: row.original.subjectType,
              })}
            </Text>
          </Stack>
        ),
      }),
      col.accessor('action', {
        header: t('platform.audit.col.action'),
        cell: ({ getValue }) => (
          <Text size="sm" title={getValue()}>
            {actionLabel(getValue())}
          </Text>
        ),
      }),
      col.accessor('changes', {
        header: t('platform.audit.col.changes'),
        cell: ({ getValue }) => {
          const lines = summarizeChanges(getValue(), empty);
          if (!lines.length) return t('platform.audit.noChanges');
          return (
            <Stack gap={2}>
              {lines.map((line, i) => (
                <Text
                  key={i}
                  size="xs"
                  ff="monospace"
                  title={line.full}
                  style={{ wordBreak: 'break-word' }}
                >
                  {line.text}
                </Text>
              ))}
            </Stack>
          );
        },
      }),
      col.accessor('reason', {
        header: t('platform.audit.col.reason'),
        cell: ({ getValue }) => getValue() ?? '',
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, empty],
  );

  return (
    <PageLayout
      title={t('platform.audit.title')}
      filters={
        <AuditFilters
          key={FILTERS.map((f) => url.filters[f]).join('|')}
          initial={url.filters}
          onSearch={url.setFilters}
          onReset={url.resetFilters}
        />
      }
    >
      {query.isError && <FormError message={errorText(query.error)} />}
      <DataTable
        columns={columns}
        data={query.data?.records}
        total={query.data?.total ?? 0}
        getRowId={(r) => String(r.position)}
        urlState={url}
        loading={query.isFetching}
        caption={t('platform.audit.title')}
      />
    </PageLayout>
  );
}

function AuditFilters({
  initial,
  onSearch,
  onReset,
}: {
  initial: Record<Filter, string>;
  onSearch: (filters: Partial<Record<Filter, string>>) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const set = (key: Filter, value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const range: [string | null, string | null] = [ymdToIso(draft.fromDate), ymdToIso(draft.toDate)];

  return (
    <Group
      component="form"
      align="flex-end"
      gap="sm"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(Object.fromEntries(FILTERS.map((f) => [f, draft[f].trim()])));
      }}
    >
      <Select
        label={t('platform.audit.subjectType')}
        data={[
          { value: '', label: t('platform.audit.subjectTypes.all') },
          ...SUBJECT_TYPES.map((s) => ({ value: s, label: t(`platform.audit.subjectTypes.${s}`) })),
        ]}
        value={draft.subjectType}
        onChange={(v) => set('subjectType', v ?? '')}
        allowDeselect={false}
        w={140}
      />
      <TextInput
        label={t('platform.audit.subjectId')}
        value={draft.subjectId}
        maxLength={100}
        onChange={(e) => set('subjectId', e.currentTarget.value)}
        w={160}
      />
      <TextInput
        label={t('platform.audit.actor')}
        value={draft.actor}
        maxLength={100}
        onChange={(e) => set('actor', e.currentTarget.value)}
        w={160}
      />
      <Autocomplete
        label={t('platform.audit.action')}
        data={Object.keys(platformZh.audit.events)}
        value={draft.action}
        maxLength={100}
        onChange={(v) => set('action', v)}
        w={220}
      />
      <TextInput
        label={t('platform.common.keyword')}
        value={draft.keyword}
        maxLength={100}
        onChange={(e) => set('keyword', e.currentTarget.value)}
        w={160}
      />
      <DatePickerInput
        type="range"
        label={t('platform.audit.dateRange')}
        value={range}
        onChange={([from, to]) =>
          setDraft((d) => ({ ...d, fromDate: isoToYmd(from), toDate: isoToYmd(to) }))
        }
        valueFormat="YYYY-MM-DD"
        allowSingleDateInRange
        clearable
        w={240}
      />
      <Button type="submit" leftSection={<IconSearch size={16} />}>
        {t('platform.common.search')}
      </Button>
      <Button variant="default" onClick={onReset}>
        {t('platform.common.reset')}
      </Button>
    </Group>
  );
}
