// Staff `/clearance-exception/{export,import}` and the customer's `/customer-exception/...`
// twins: filters in the URL (type, status, port, tracking numbers, dates), server-side
// paging and sorting, status badges, how long each exception has waited and on whom
// (overdue in red), "create exception", and for staff the export dialog.
import { useMemo, useState } from 'react';
import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconFileExport, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DataTable, dataTableColumns, useTableSearchParams } from '@/components/DataTable';
import { PageLayout } from '@/components/PageLayout';
import { CustomerCell } from '@/components/CustomerCell';
import { useRouteMeta } from '@/shared/routing/useRouteMeta';
import { formatDateTime } from '@/lib/dates';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useExceptions } from '@/shared/clearance-exceptions/api/getExceptions';
import {
  EXCEPTION_FILTER_KEYS,
  exceptionListParams,
  shipmentTypeOf,
  type Direction,
} from '@/shared/clearance-exceptions/model/listFilters';
import {
  exceptionCreatePath,
  exceptionDetailPath,
  type Area,
} from '@/shared/clearance-exceptions/model/paths';
import type { ExceptionSummary } from '@/shared/clearance-exceptions/model/types';
import { requestedDocumentFlag } from '../model/form';
import { ExceptionFilters } from '../components/ExceptionFilters';
import { useCanExport } from '@/lib/exportRights';
import { ExportExceptionsDialog } from '../components/ExportExceptionsDialog';
import { ExceptionStatusBadge } from '@/shared/clearance-exceptions/components/StatusBadge';
import { NoticeDeliveryBadge } from '@/shared/clearance-exceptions/components/NoticeDeliveryBadge';
import { WaitingCell } from '@/shared/clearance-exceptions/components/WaitingCell';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

const col = dataTableColumns<ExceptionSummary>();

export default function ExceptionListPage() {
  const meta = useRouteMeta();
  const direction: Direction = meta.exceptionDirection ?? 'export';
  const area: Area = meta.area ?? 'staff';
  const staff = area === 'staff';
  // The server exports for admins holding clearance:management only (lib/exportRights).
  const mayExport = useCanExport('exceptions') && staff;
  const { t } = useExcT();
  const { t: tg } = useTranslation();
  const typeName = useDeclarationTypeName();
  const navigate = useNavigate();
  const [exportOpen, setExportOpen] = useState(false);

  const url = useTableSearchParams({
    filterKeys: EXCEPTION_FILTER_KEYS,
    defaultSort: { field: 'createdAt', dir: 'desc' },
  });
  const params = useMemo(
    () => exceptionListParams(direction, url.apiParams, url.filters, area),
    [direction, url.apiParams, url.filters, area],
  );
  const query = useExceptions(params);

  const columns = useMemo(
    () => [
      col.accessor('trackingNumber', {
        header: t('list.col.trackingNumber'),
        meta: { sortField: 'trackingNumber' },
        cell: ({ row }) => (
          <Anchor
            component={Link}
            to={exceptionDetailPath(area, row.original.id)}
            fw={500}
            size="sm"
          >
            {row.original.trackingNumber || t('common.none')}
          </Anchor>
        ),
      }),
      col.accessor('declarationType', {
        header: t('list.col.declarationType'),
        cell: ({ getValue }) => <Text size="sm">{typeName(getValue(), { code: staff })}</Text>,
      }),
      col.accessor('status', {
        header: t('list.col.status'),
        meta: { sortField: 'status' },
        cell: ({ getValue, row }) => (
          <Group gap={4} wrap="wrap">
            <ExceptionStatusBadge status={getValue()} />
            <NoticeDeliveryBadge delivery={row.original.noticeDelivery} />
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
                  maw={160}
                />
              ),
            }),
            col.accessor('port', {
              header: t('list.col.port'),
              meta: { card: false },
              cell: ({ getValue }) => <Text size="sm">{getValue() || t('common.none')}</Text>,
            }),
          ]
        : []),
      col.accessor('requestedDocuments', {
        header: t('list.col.requested'),
        meta: { card: false },
        cell: ({ getValue }) => {
          const names = (getValue() ?? []).map((n) => {
            const flag = requestedDocumentFlag(n);
            return flag ? t(`document.${flag}`) : n;
          });
          const text = names.join('、');
          return (
            <Text size="sm" lineClamp={2} maw={200} title={text || undefined}>
              {text || t('common.none')}
            </Text>
          );
        },
      }),
      col.accessor('exceptionSummary', {
        header: t('list.col.summary'),
        cell: ({ getValue }) => (
          <Text size="sm" lineClamp={2} maw={220} title={getValue() ?? undefined}>
            {getValue() || t('common.none')}
          </Text>
        ),
      }),
      col.accessor('statusSince', {
        header: t('list.col.waiting'),
        meta: { sortField: 'statusSince' },
        cell: ({ row }) => (
          <WaitingCell
            status={row.original.status}
            waitingOn={row.original.waitingOn}
            statusSince={row.original.statusSince}
            overdue={row.original.overdue}
            ageMinutes={row.original.ageMinutes}
          />
        ),
      }),
      col.accessor('createdAt', {
        header: t('list.col.createdAt'),
        meta: { sortField: 'createdAt' },
        cell: ({ getValue }) => (
          // Date and time may sit on two lines: the list fits a 1440 px screen unscrolled.
          <Text size="sm">{formatDateTime(getValue())}</Text>
        ),
      }),
      col.display({
        id: 'actions',
        header: t('list.col.actions'),
        cell: ({ row }) => (
          <Button
            size="compact-sm"
            variant="subtle"
            aria-label={`${t('list.view')} ${row.original.trackingNumber ?? row.original.id}`}
            onClick={() => navigate(exceptionDetailPath(area, row.original.id))}
          >
            {t('list.view')}
          </Button>
        ),
      }),
    ],
    [t, typeName, staff, area, navigate],
  );

  const title = tg(direction === 'export' ? 'route.exceptionExport' : 'route.exceptionImport');

  return (
    <PageLayout
      title={title}
      actions={
        <>
          {mayExport && (
            <Button
              variant="default"
              leftSection={<IconFileExport size={16} />}
              onClick={() => setExportOpen(true)}
            >
              {t('list.export')}
            </Button>
          )}
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => navigate(exceptionCreatePath(area))}
          >
            {t('list.new')}
          </Button>
        </>
      }
      filters={
        <ExceptionFilters
          key={JSON.stringify(url.filters)}
          direction={direction}
          filters={url.filters}
          staff={staff}
          onSearch={(next) => url.setFilters(next)}
          onReset={() => url.resetFilters()}
        />
      }
    >
      <DataTable
        caption={`${title} ${t('list.caption')}`}
        columns={columns}
        data={query.data?.records}
        total={query.data?.total ?? 0}
        getRowId={(r) => r.id}
        urlState={url}
        loading={query.isFetching}
      />
      {query.isError && (
        <Text c="red" size="sm" role="alert">
          {t('common.loadFailed', { message: (query.error as Error).message })}
        </Text>
      )}
      {mayExport && exportOpen && (
        <ExportExceptionsDialog
          onClose={() => setExportOpen(false)}
          initial={{
            shipmentType: String(shipmentTypeOf(direction)),
            declarationType: url.filters.declarationType,
            status: url.filters.status || '-1',
            port: url.filters.port,
            fromDate: url.filters.fromDate,
            toDate: url.filters.toDate,
          }}
        />
      )}
    </PageLayout>
  );
}
