// Staff `/customs-clearance/{export,import}/{export,import}-{b,c,d}` and the customer's
// `/customs-clearance-supply/...` twins: filters, server-side paging and sorting from the
// URL, status badges, the row actions the role may take in the row's status, "new
// declaration", and for admins selection and export of the filtered list.
import { lazy, Suspense, useMemo, useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconFileExport, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DataTable, dataTableColumns, useTableSearchParams } from '@/components/DataTable';
import { useRouteMeta } from '@/shared/routing/useRouteMeta';
import type { Area } from '@/lib/declarations';
import { isAdmin } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { useCanExport } from '@/lib/exportRights';
import { useDeclT } from '@/shared/declarations/i18n';
import { useDeclarations } from '@/shared/declarations/api/getDeclarations';
import { allowedActions } from '@/shared/declarations/model/actions';
import { formatDateTime } from '@/lib/dates';
import { formatMoney } from '@/shared/declarations/model/format';
import { LIST_FILTER_KEYS, listApiParams } from '@/shared/declarations/model/listFilters';
import { declarationDetailPath, declarationFormPath } from '@/lib/declarations';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import { RowActions } from '../components/ActionButtons';
import { ListFilters } from '../components/ListFilters';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import { ByHandMarker, ReceiptBadge } from '@/shared/customs/components/ReceiptBadge';
import { useDeclarationActions } from '../components/useDeclarationActions';
import { PageLayout } from '@/components/PageLayout';
import { CustomerCell } from '@/components/CustomerCell';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

const ExportReportDialog = lazy(() => import('../components/ExportReportDialog'));

const col = dataTableColumns<DeclarationSummary>();

/** Date above time, so the list fits beside the sidebar. */
function DateTimeCell({ value }: { value: string | null }) {
  const text = formatDateTime(value);
  if (!text) return null;
  const [date, time] = text.split(' ');
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {date}
      </Text>
      <Text size="xs" c="dimmed">
        {time}
      </Text>
    </Stack>
  );
}

export default function DeclarationListPage() {
  const meta = useRouteMeta();
  const type = meta.declarationType ?? 'OD';
  const area: Area = meta.area ?? 'customer';
  const staff = area === 'staff';
  const { t } = useDeclT();
  const { t: tg, i18n } = useTranslation();
  const typeName = useDeclarationTypeName();
  const navigate = useNavigate();
  const role = useSessionStore((s) => s.role);
  const admin = isAdmin(role);
  const mayExport = useCanExport('declarations');

  const url = useTableSearchParams({
    filterKeys: LIST_FILTER_KEYS,
    defaultSort: { field: 'createdAt', dir: 'desc' },
  });
  const params = useMemo(
    () => listApiParams(type, url.apiParams, url.filters, area),
    [type, url.apiParams, url.filters, area],
  );
  const query = useDeclarations(params);
  const [selected, setSelected] = useState<string[]>([]);
  const [exportOpen, setExportOpen] = useState(false);

  const actions = useDeclarationActions({
    onEdit: (target) => navigate(declarationFormPath(area, target.declarationType, target.id)),
    onFieldErrors: (target) =>
      navigate(declarationFormPath(area, target.declarationType, target.id)),
  });

  const columns = useMemo(
    () => [
      col.accessor('trackingNumber', {
        header: t('list.col.trackingNumber'),
        meta: { sortField: 'trackingNumber' },
        cell: ({ row }) => (
          <Anchor
            component={Link}
            to={declarationDetailPath(area, row.original.declarationType, row.original.id)}
            fw={500}
            onClick={(e) => e.stopPropagation()}
          >
            {row.original.trackingNumber || t('common.none')}
          </Anchor>
        ),
      }),
      col.accessor('entryId', {
        header: tg('customs.entryId'),
        meta: { card: false },
        cell: ({ getValue }) =>
          getValue() ? (
            <Text size="xs" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
              {getValue()}
            </Text>
          ) : null,
      }),
      col.accessor('status', {
        header: t('list.col.status'),
        meta: { sortField: 'status', width: 170 },
        cell: ({ row }) => (
          <Group gap={4} wrap="wrap" miw={130}>
            <StatusBadge status={row.original.status} />
            <ReceiptBadge code={row.original.customsReceipt} at={row.original.customsReceiptAt} />
            {row.original.movedByHand && <ByHandMarker />}
            {row.original.declarationStatus &&
              row.original.declarationStatus !== row.original.customsReceipt && (
                <Tooltip
                  label={`${t('list.col.declarationStatus')}: ${t(
                    `receipt.${row.original.declarationStatus}`,
                    { defaultValue: row.original.declarationStatus },
                  )}`}
                >
                  <Badge variant="outline" size="sm" color="gray" px={6} style={{ flexShrink: 0 }}>
                    {row.original.declarationStatus}
                  </Badge>
                </Tooltip>
              )}
          </Group>
        ),
      }),
      ...(staff
        ? [
            col.accessor('username', {
              header: t('list.col.customer'),
              cell: ({ row }) => (
                <CustomerCell
                  username={row.original.username}
                  companyName={row.original.companyName}
                  maw={150}
                />
              ),
            }),
          ]
        : []),
      col.accessor('port', {
        header: t('list.col.port'),
        meta: { card: false },
        cell: ({ row }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {[row.original.port, row.original.slic].filter(Boolean).join(' / ')}
          </Text>
        ),
      }),
      col.accessor('consigneeName', {
        header: t('list.col.consignee'),
        meta: { card: false },
        cell: ({ getValue }) => (
          <Text size="sm" truncate maw={120} title={getValue() ?? undefined}>
            {getValue()}
          </Text>
        ),
      }),
      col.accessor('totalValue', {
        header: t('list.col.totalValue'),
        meta: { align: 'right', card: false },
        cell: ({ row }) => (
          <Stack gap={0} align="flex-end">
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatMoney(row.original.totalValue, row.original.currency, i18n.language)}
            </Text>
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {t('form.lines', { count: row.original.goodsCount })}
            </Text>
          </Stack>
        ),
      }),
      col.display({
        id: 'tax',
        header: t('list.col.tax'),
        meta: { align: 'right', card: false },
        cell: ({ row }) => {
          const money = (v: number | null | undefined) =>
            v === null || v === undefined ? '–' : formatMoney(v, 'CNY', i18n.language);
          return (
            <Stack gap={0} align="flex-end" data-testid="list-tax">
              <Text size="sm" style={{ whiteSpace: 'nowrap' }} title={t('list.col.taxEstimated')}>
                {money(row.original.estimatedTax)}
              </Text>
              <Text
                size="xs"
                c="dimmed"
                style={{ whiteSpace: 'nowrap' }}
                title={t('list.col.taxAssessed')}
              >
                {money(row.original.assessedTax)}
              </Text>
            </Stack>
          );
        },
      }),
      col.accessor('estimatedPickupTime', {
        header: t('list.col.estimatedPickupTime'),
        meta: { sortField: 'estimatedPickupTime', card: false },
        cell: ({ getValue }) => <DateTimeCell value={getValue()} />,
      }),
      col.accessor('createdAt', {
        header: t('list.col.createdAt'),
        meta: { sortField: 'createdAt' },
        cell: ({ getValue }) => <DateTimeCell value={getValue()} />,
      }),
      col.display({
        id: 'actions',
        header: t('list.actions'),
        cell: ({ row }) => {
          const r = row.original;
          return (
            <RowActions
              label={r.trackingNumber ?? r.id}
              actions={allowedActions(role, r.status)}
              onView={() => navigate(declarationDetailPath(area, r.declarationType, r.id))}
              onAction={(a) =>
                actions.run(a, {
                  id: r.id,
                  version: r.version,
                  status: r.status,
                  declarationType: r.declarationType,
                  trackingNumber: r.trackingNumber,
                })
              }
            />
          );
        },
      }),
    ],
    // `actions.run` is stable enough: it closes over setters and the mutation.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language, staff, area, role, navigate],
  );

  return (
    <PageLayout
      title={typeName(type)}
      actions={
        <>
          {mayExport && (
            <Tooltip label={t('list.exportSelectedHint')} multiline w={260}>
              <Button
                variant="default"
                leftSection={<IconFileExport size={16} />}
                onClick={() => setExportOpen(true)}
              >
                {t('list.exportFilter')}
              </Button>
            </Tooltip>
          )}
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => navigate(declarationFormPath(area, type))}
          >
            {t('list.new')}
          </Button>
        </>
      }
      filters={
        <ListFilters
          key={JSON.stringify(url.filters)}
          filters={url.filters}
          staff={staff}
          onSearch={(next) => {
            setSelected([]);
            url.setFilters(next);
          }}
          onReset={() => {
            setSelected([]);
            url.resetFilters();
          }}
        />
      }
    >
      {admin && selected.length > 0 && (
        <Group gap="xs">
          <Text size="sm">{t('list.selected', { count: selected.length })}</Text>
          <Button size="compact-sm" variant="subtle" onClick={() => setSelected([])}>
            {t('list.clearSelection')}
          </Button>
        </Group>
      )}

      <DataTable
        caption={`${typeName(type)} ${t('list.caption')}`}
        columns={columns}
        data={query.data?.records}
        total={query.data?.total ?? 0}
        getRowId={(r) => r.id}
        urlState={url}
        loading={query.isFetching}
        selectable={admin}
        selectedIds={selected}
        onSelectionChange={setSelected}
      />
      {query.isError && (
        <Text c="red" size="sm" role="alert">
          {t('common.loadFailed', { message: (query.error as Error).message })}
        </Text>
      )}

      {actions.element}
      {mayExport && exportOpen && (
        <Suspense fallback={null}>
          <ExportReportDialog
            opened={exportOpen}
            onClose={() => setExportOpen(false)}
            initial={{
              declarationType: type,
              status: url.filters.status || '-1',
              username: url.filters.username,
              port: url.filters.port,
              fromDate: url.filters.fromDate,
              toDate: url.filters.toDate,
            }}
          />
        </Suspense>
      )}
    </PageLayout>
  );
}
