// `…/all`: every declaration the person may see, of every type, newest first, beside the
// per-class menus (a customer no longer needs three menu levels to reach one). Types are
// shown with their names, the status with the newest customs receipt (filterable); each
// row links to its detail page.
import { useState } from 'react';
import {
  Anchor,
  Badge,
  CloseButton,
  Group,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
} from '@mantine/core';
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

const PAGE_SIZE = 20;

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
        <Table.ScrollContainer minWidth={600}>
          <Table withTableBorder striped highlightOnHover aria-label={tg('route.allDeclarations')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('list.col.trackingNumber')}</Table.Th>
                <Table.Th>{t('list.col.declarationType')}</Table.Th>
                <Table.Th>{t('list.col.status')}</Table.Th>
                <Table.Th>{t('list.col.updatedAt')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={declarationDetailPath(area, r.declarationType, r.id)}
                    >
                      {r.trackingNumber}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{tg(`declarationType.${r.declarationType}`)}</Table.Td>
                  <Table.Td>
                    <StatusWithReceipt
                      status={r.status}
                      customsReceipt={r.customsReceipt}
                      customsReceiptAt={r.customsReceiptAt}
                      movedByHand={r.movedByHand}
                    />
                  </Table.Td>
                  <Table.Td>{formatDateTime(r.updatedAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
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
