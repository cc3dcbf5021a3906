// `/customers-profile/opera-record`: declaration records, the activity feed of every
// declaration (who did what, when), newest first, with filters and paging in the URL.
import { useMemo, useState } from 'react';
import { Anchor, Badge, Button, Group, Paper, Select, Stack, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconArrowRight, IconRefresh, IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataTable, dataTableColumns, useTableSearchParams } from '@/components/DataTable';
import { DECLARATION_TYPES } from '@/lib/declarations';
import { isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { useDeclT } from '@/shared/declarations/i18n';
import { useDeclarationActivity } from '../api/getDeclarationActivity';
import { ACTIVITY_ACTIONS } from '@/shared/declarations/model/actions';
import { formatDateTime } from '@/lib/dates';
import { isoToYmd, ymdToIso } from '@/lib/dates';
import { normalizeTrackingNumbers } from '@/shared/declarations/model/listFilters';
import { declarationDetailPath } from '@/lib/declarations';
import type { ActivityEntry } from '@/shared/declarations/model/types';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import { PageLayout } from '@/components/PageLayout';

const FILTERS = [
  'actor',
  'action',
  'declarationType',
  'trackingNumber',
  'fromDate',
  'toDate',
] as const;
type Filters = Record<(typeof FILTERS)[number], string>;

const col = dataTableColumns<ActivityEntry>();

export default function DeclarationRecordsPage() {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const area = isCustomer(role) ? 'customer' : 'staff';
  const url = useTableSearchParams({ filterKeys: FILTERS });
  const params = useMemo(() => {
    const p = { ...url.apiParams };
    delete p.sort;
    for (const k of FILTERS) if (!p[k]) delete p[k];
    return p;
  }, [url.apiParams]);
  const query = useDeclarationActivity(params);

  const columns = useMemo(
    () => [
      col.accessor('at', {
        header: t('records.at'),
        cell: ({ getValue }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(getValue())}
          </Text>
        ),
      }),
      col.accessor((r) => r.actor.name, {
        id: 'actor',
        header: t('records.actor'),
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm">{row.original.actor.name}</Text>
            {row.original.actor.role && (
              <Text size="xs" c="dimmed">
                {tg(`role.${row.original.actor.role}`, { defaultValue: row.original.actor.role })}
              </Text>
            )}
          </Stack>
        ),
      }),
      col.accessor('action', {
        header: t('records.action'),
        cell: ({ getValue }) => (
          <Badge variant="light" style={{ textTransform: 'none' }}>
            {t(`history.action.${getValue()}`, { defaultValue: getValue() })}
          </Badge>
        ),
      }),
      col.accessor('trackingNumber', {
        header: t('records.trackingNumber'),
        cell: ({ row }) =>
          row.original.declarationType ? (
            <Anchor
              component={Link}
              size="sm"
              to={declarationDetailPath(
                area,
                row.original.declarationType,
                row.original.declarationId,
              )}
            >
              {row.original.trackingNumber || row.original.declarationId.slice(0, 8)}
            </Anchor>
          ) : (
            row.original.trackingNumber
          ),
      }),
      col.accessor('declarationType', {
        header: t('records.declarationType'),
        cell: ({ getValue }) => (getValue() ? tg(`declarationType.${getValue()}`) : ''),
      }),
      col.display({
        id: 'change',
        header: t('records.change'),
        cell: ({ row }) => {
          const e = row.original;
          if (e.fromStatus === null || e.fromStatus === e.toStatus)
            return <StatusBadge status={e.toStatus} size="xs" />;
          return (
            <Group gap={4} wrap="nowrap">
              <StatusBadge status={e.fromStatus} size="xs" />
              <IconArrowRight size={12} aria-label="→" />
              <StatusBadge status={e.toStatus} size="xs" />
            </Group>
          );
        },
      }),
      col.display({
        id: 'detail',
        header: t('records.detail'),
        cell: ({ row }) => {
          const e = row.original;
          const parts = [
            e.reason ? t('history.reason', { reason: e.reason }) : '',
            e.receiptCode ? t('history.receipt', { code: e.receiptCode }) : '',
            e.changes?.length ? t('history.changes', { count: e.changes.length }) : '',
          ].filter(Boolean);
          return (
            <Text size="xs" lineClamp={2} maw={320}>
              {parts.join(' · ')}
            </Text>
          );
        },
      }),
    ],
    [t, tg, area],
  );

  return (
    <PageLayout
      title={t('records.title')}
      filters={
        <RecordFilters
          key={JSON.stringify(url.filters)}
          filters={url.filters}
          onSearch={url.setFilters}
          onReset={url.resetFilters}
        />
      }
    >
      <DataTable
        caption={t('records.caption')}
        columns={columns}
        data={query.data?.records}
        total={query.data?.total ?? 0}
        getRowId={(r) => `${r.declarationId}-${r.version}`}
        urlState={url}
        loading={query.isFetching}
      />
    </PageLayout>
  );
}

function RecordFilters({
  filters,
  onSearch,
  onReset,
}: {
  filters: Filters;
  onSearch: (f: Filters) => void;
  onReset: () => void;
}) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const [draft, setDraft] = useState<Filters>(filters);
  const search = () =>
    onSearch({
      ...draft,
      actor: draft.actor.trim(),
      trackingNumber: normalizeTrackingNumbers(draft.trackingNumber),
    });

  return (
    <Paper
      withBorder
      p="sm"
      component="form"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        search();
      }}
    >
      <Group align="flex-end" gap="sm">
        <TextInput
          label={t('records.actor')}
          placeholder={t('records.actorPlaceholder')}
          value={draft.actor}
          onChange={(e) => setDraft({ ...draft, actor: e.currentTarget.value })}
          w={150}
        />
        <Select
          label={t('records.action')}
          placeholder={t('common.all')}
          clearable
          value={draft.action || null}
          onChange={(v) => setDraft({ ...draft, action: v ?? '' })}
          data={ACTIVITY_ACTIONS.map((a) => ({ value: a, label: t(`history.action.${a}`) }))}
          w={150}
        />
        <Select
          label={t('records.declarationType')}
          placeholder={t('common.all')}
          clearable
          value={draft.declarationType || null}
          onChange={(v) => setDraft({ ...draft, declarationType: v ?? '' })}
          data={DECLARATION_TYPES.map((ty) => ({ value: ty, label: tg(`declarationType.${ty}`) }))}
          w={150}
        />
        <TextInput
          label={t('records.trackingNumber')}
          value={draft.trackingNumber}
          onChange={(e) => setDraft({ ...draft, trackingNumber: e.currentTarget.value })}
          w={200}
        />
        <DatePickerInput
          type="range"
          label={t('records.dateRange')}
          placeholder={t('list.datePlaceholder')}
          value={[ymdToIso(draft.fromDate), ymdToIso(draft.toDate)]}
          onChange={([from, to]) =>
            setDraft({ ...draft, fromDate: isoToYmd(from), toDate: isoToYmd(to) })
          }
          valueFormat="YYYY-MM-DD"
          clearable
          allowSingleDateInRange
          w={240}
        />
        <Button type="submit" leftSection={<IconSearch size={16} />}>
          {t('common.search')}
        </Button>
        <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onReset}>
          {t('common.reset')}
        </Button>
      </Group>
    </Paper>
  );
}
