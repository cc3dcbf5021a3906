// `…/all`: every declaration the person may see, of every type, newest first, beside the
// per-class menus (a customer no longer needs three menu levels to reach one). Types are
// shown with their names, the status with the newest customs receipt (filterable); each
// row links to its detail page.
import { useMemo, useState } from 'react';
import { Anchor, Badge, CloseButton, Group, Pagination, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { formatDateTime } from '@/lib/dates';
import { declarationDetailPath } from '@/lib/declarations';
import { useDeclT } from '@/shared/declarations/i18n';
import { useDeclarations } from '@/shared/declarations/api/getDeclarations';
import { StatusWithReceipt } from '@/shared/declarations/components/StatusWithReceipt';
import { RECEIPT_FILTER_VALUES, receiptLabel } from '@/shared/customs/model/receipts';
import { PageLayout } from '@/components/PageLayout';
import { DataTable, dataTableColumns } from '@/components/DataTable';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';
import type { DeclarationSummary } from '@/shared/declarations/model/types';

const PAGE_SIZE = 20;

const col = dataTableColumns<DeclarationSummary>();

export default function AllDeclarationsPage() {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const area = isCustomer(role) ? 'customer' : 'staff';
  const [page, setPage] = useState(1);
  // `?status=` (from a home page's "needs action" counts) narrows the list to one status.
  const [search, setSearch] = useSearchParams();
  const raw = search.get('status');
  const status = raw !== null && /^\d+$/.test(raw) ? Number(raw) : undefined;
  const [receipt, setReceipt] = useState<string | null>(null);
  const query = useDeclarations({
    pageNo: page,
    pageSize: PAGE_SIZE,
    status,
    ...(receipt ? { customsReceipt: receipt } : {}),
  });
  const rows = query.data?.records ?? [];
  const total = query.data?.total ?? 0;
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
        // Staff also read the code (the lists, exports and files name types by code).
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
          />
        ),
      }),
      col.accessor('updatedAt', {
        header: t('list.col.updatedAt'),
        cell: ({ getValue }) => formatDateTime(getValue()),
      }),
    ],
    [t, typeName, area],
  );

  return (
    <PageLayout title={tg('route.allDeclarations')}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <Group gap="xs">
            {status !== undefined && (
              <Badge
                variant="light"
                rightSection={
                  <CloseButton
                    size="xs"
                    aria-label={tg('common.clear')}
                    onClick={() => {
                      setPage(1);
                      setSearch({});
                    }}
                  />
                }
              >
                {tg(`declarationStatus.${status}`)}
              </Badge>
            )}
            <Text size="sm" c="dimmed">
              {t('statusQuery.found', { count: total })}
            </Text>
          </Group>
          <Select
            label={tg('customs.receiptFilter')}
            placeholder={tg('customs.receiptAll')}
            clearable
            value={receipt}
            onChange={(v) => {
              setReceipt(v);
              setPage(1);
            }}
            data={RECEIPT_FILTER_VALUES.map((c) => ({
              value: c,
              label: c === 'none' ? receiptLabel(tg, c) : `${c} · ${receiptLabel(tg, c)}`,
            }))}
            w={200}
          />
        </Group>
        <DataTable
          caption={tg('route.allDeclarations')}
          columns={columns}
          data={rows}
          total={total}
          getRowId={(r) => r.id}
          showIndex={false}
          loading={query.isFetching}
        />
        {total > PAGE_SIZE && (
          <Group justify="flex-end">
            <Pagination
              total={Math.ceil(total / PAGE_SIZE)}
              value={page}
              onChange={setPage}
              size="sm"
            />
          </Group>
        )}
      </Stack>
    </PageLayout>
  );
}
