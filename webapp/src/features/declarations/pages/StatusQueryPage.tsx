// `/customers-status-query`: the status of many declarations at once, by tracking numbers
// (comma or newline separated), with links to their detail pages. The numbers live in the
// URL so a query can be reloaded or shared. Also `/find`, the header's search. Answers come
// in the order asked (case, spaces and hyphens ignored), each with its milestones, the
// newest customs receipt beside the status (filterable) and customs' entry number.
import { useMemo, useState } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { useDeclT } from '@/shared/declarations/i18n';
import { useDeclarations } from '@/shared/declarations/api/getDeclarations';
import { formatDateTime } from '@/lib/dates';
import { normalizeTrackingNumbers } from '@/shared/declarations/model/listFilters';
import { declarationDetailPath } from '@/lib/declarations';
import { StatusWithReceipt } from '@/shared/declarations/components/StatusWithReceipt';
import { RECEIPT_FILTER_VALUES, receiptLabel } from '@/shared/customs/model/receipts';
import { PageLayout } from '@/components/PageLayout';
import { DataTable, dataTableColumns } from '@/components/DataTable';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import { compactTracking } from '@/lib/fieldRules';
import { useDeclarationHistory } from '../api/getDeclarationHistory';
import { milestones } from '../model/milestones';

/** Milestones are read for this many answers (each is one history request). */
const MILESTONE_ROWS = 20;

function Milestones({ id }: { id: string }) {
  const { t } = useDeclT();
  const history = useDeclarationHistory(id);
  const list = milestones(history.data ?? []);
  if (history.isLoading) return <Text size="xs">…</Text>;
  if (list.length === 0)
    return (
      <Text size="xs" c="dimmed">
        -
      </Text>
    );
  return (
    <Stack gap={2} data-testid="milestones">
      {list.map((m) => (
        <Text size="xs" key={m.kind} c={m.kind === 'held' ? 'orange' : undefined}>
          <b>{t(`milestone.${m.kind}`)}</b> {formatDateTime(m.at)}
          {m.kind === 'held' && (m.reason || m.receiptCode)
            ? ` · ${[m.receiptCode ? t(`receipt.${m.receiptCode}`, { defaultValue: m.receiptCode }) : null, m.reason].filter(Boolean).join(' · ')}`
            : ''}
        </Text>
      ))}
    </Stack>
  );
}

export const MAX_TRACKING_NUMBERS = 100;

const col = dataTableColumns<DeclarationSummary>();

export default function StatusQueryPage() {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const role = useSessionStore((s) => s.role);
  const area = isCustomer(role) ? 'customer' : 'staff';
  const current = search.get('trackingNumber') ?? '';
  const [text, setText] = useState(current.split(',').join('\n'));
  const [problem, setProblem] = useState<string | null>(null);

  const receipt = search.get('customsReceipt') ?? '';
  const numbers = useMemo(() => (current ? current.split(',') : []), [current]);
  const query = useDeclarations(
    {
      trackingNumber: current,
      pageNo: 1,
      pageSize: MAX_TRACKING_NUMBERS,
      ...(receipt ? { customsReceipt: receipt } : {}),
    },
    numbers.length > 0,
  );
  // In the order asked; a number matches whatever its case, spaces and hyphens.
  const asked = numbers.map(compactTracking);
  const rank = (n: string | null | undefined) => {
    const i = asked.indexOf(compactTracking(n ?? ''));
    return i < 0 ? asked.length : i;
  };
  const rows = [...(query.data?.records ?? [])].sort(
    (a, b) => rank(a.trackingNumber) - rank(b.trackingNumber),
  );
  const typeName = useDeclarationTypeName();
  const columns = useMemo(
    () => [
      col.accessor('trackingNumber', {
        header: t('list.col.trackingNumber'),
        cell: ({ row }) => (
          <Anchor
            component={Link}
            to={declarationDetailPath(area, row.original.declarationType, row.original.id)}
            fw={500}
          >
            {row.original.trackingNumber || t('common.none')}
          </Anchor>
        ),
      }),
      col.accessor('declarationType', {
        header: t('list.col.declarationType'),
        cell: ({ getValue }) => typeName(getValue(), { code: area === 'staff' }),
      }),
      col.accessor('status', {
        header: t('list.col.status'),
        cell: ({ row }) => (
          <StatusWithReceipt
            status={row.original.status}
            customsReceipt={row.original.customsReceipt}
            customsReceiptAt={row.original.customsReceiptAt}
            movedByHand={row.original.movedByHand}
            minWidth={120}
          />
        ),
      }),
      col.accessor('declarationStatus', {
        header: t('list.col.declarationStatus'),
        meta: { card: false },
        cell: ({ getValue }) =>
          getValue() ? (
            <Badge variant="outline" color="gray" size="sm" style={{ textTransform: 'none' }}>
              {t(`receipt.${getValue()}`, { defaultValue: getValue() })}
            </Badge>
          ) : null,
      }),
      col.accessor('entryId', {
        header: tg('customs.entryId'),
        meta: { card: false },
        cell: ({ getValue }) => (
          <Text size="xs" ff="monospace">
            {getValue()}
          </Text>
        ),
      }),
      col.accessor('createdAt', {
        header: t('list.col.createdAt'),
        meta: { card: false },
        cell: ({ getValue }) => formatDateTime(getValue()),
      }),
      col.accessor('updatedAt', {
        header: t('list.col.updatedAt'),
        cell: ({ getValue }) => formatDateTime(getValue()),
      }),
      col.display({
        id: 'milestones',
        header: t('milestone.title'),
        cell: ({ row }) =>
          row.index < MILESTONE_ROWS ? <Milestones id={row.original.id} /> : null,
      }),
    ],
    [t, tg, typeName, area],
  );
  const found = new Set(rows.map((r) => compactTracking(r.trackingNumber ?? '')));
  // With a receipt filter, the others are found but filtered out, not missing.
  const missing = receipt ? [] : numbers.filter((n) => !found.has(compactTracking(n)));

  const submit = () => {
    const list = normalizeTrackingNumbers(text);
    if (!list) return setProblem(t('statusQuery.empty'));
    if (list.split(',').length > MAX_TRACKING_NUMBERS)
      return setProblem(t('statusQuery.tooMany', { max: MAX_TRACKING_NUMBERS }));
    setProblem(null);
    setSearch(
      receipt ? { trackingNumber: list, customsReceipt: receipt } : { trackingNumber: list },
    );
  };
  const chooseReceipt = (value: string | null) => {
    const next: Record<string, string> = current ? { trackingNumber: current } : {};
    if (value) next.customsReceipt = value;
    setSearch(next);
  };

  return (
    <PageLayout title={t('statusQuery.title')}>
      <Card
        withBorder
        component="form"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label={t('statusQuery.label')}
            placeholder={t('statusQuery.placeholder')}
            description={t('statusQuery.hint')}
            autosize
            minRows={3}
            maxRows={10}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={problem}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) submit();
            }}
          />
          <Group align="flex-end" wrap="wrap">
            <Select
              label={tg('customs.receiptFilter')}
              placeholder={tg('customs.receiptAll')}
              clearable
              value={receipt || null}
              onChange={chooseReceipt}
              data={RECEIPT_FILTER_VALUES.map((c) => ({
                value: c,
                label: c === 'none' ? receiptLabel(tg, c) : `${c} · ${receiptLabel(tg, c)}`,
              }))}
              w={200}
            />
            <Button type="submit" leftSection={<IconSearch size={16} />} loading={query.isFetching}>
              {t('statusQuery.search')}
            </Button>
          </Group>
        </Stack>
      </Card>

      {numbers.length > 0 && !query.isLoading && (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('statusQuery.found', { count: rows.length })}
          </Text>
          {missing.length > 0 && (
            <Alert color="orange" variant="light">
              {t('statusQuery.notFound', { list: missing.join(', ') })}
            </Alert>
          )}
          {rows.length > 0 && (
            <DataTable
              caption={t('statusQuery.title')}
              columns={columns}
              data={rows}
              total={rows.length}
              getRowId={(r) => r.id}
              showIndex={false}
            />
          )}
        </Stack>
      )}
    </PageLayout>
  );
}
