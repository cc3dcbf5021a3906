// `/customers-profile`: the customer archive. Keyword, status and declaration-type filters
// in the URL, server-side paging, and per row: view, maintain, disable/enable, delete and
// "file a declaration"; "new customer" opens the creation dialog.
import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Button,
  Group,
  Paper,
  Select,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import {
  IconEdit,
  IconEye,
  IconLock,
  IconLockOpen,
  IconPlus,
  IconRefresh,
  IconSearch,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DataTable, dataTableColumns, useTableSearchParams } from '@/components/DataTable';
import { Permission } from '@/components/Permission';
import { formatDateTime } from '@/lib/dates';
import { DECLARATION_TYPES } from '@/lib/declarations';
import { usePermission } from '@/lib/permissions';
import { useCustomers } from '@/shared/customers/api/getCustomers';
import { customerDetailPath } from '@/features/customers/model/links';
import {
  CUSTOMER_FILTER_KEYS,
  CUSTOMER_STATUSES,
  customerListParams,
  type CustomerFilters,
} from '@/features/customers/model/listFilters';
import type { CustomerSummary } from '@/shared/customers/model/types';
import { FileDeclarationMenu } from '@/features/customers/components/FileDeclarationMenu';
import { BindingBadge, CustomerStatusBadge } from '@/features/customers/components/StatusBadges';
import { useCustomerActions } from '@/features/customers/components/useCustomerActions';
import { PageLayout } from '@/components/PageLayout';

const col = dataTableColumns<CustomerSummary>();

function FilterBar({
  filters,
  onSearch,
  onReset,
}: {
  filters: CustomerFilters;
  onSearch: (next: CustomerFilters) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(filters);
  return (
    <Paper
      withBorder
      p="sm"
      component="form"
      role="search"
      aria-label={t('customers.list.filters')}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch({ ...draft, keyword: draft.keyword.trim() });
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          label={t('customers.list.keyword')}
          placeholder={t('customers.list.keywordPlaceholder')}
          value={draft.keyword}
          onChange={(e) => {
            const keyword = e.currentTarget.value;
            setDraft((d) => ({ ...d, keyword }));
          }}
          w={260}
        />
        <Select
          label={t('customers.list.status')}
          value={draft.status || ''}
          onChange={(v) => setDraft((d) => ({ ...d, status: v ?? '' }))}
          allowDeselect={false}
          data={[
            { value: '', label: t('customers.list.all') },
            ...CUSTOMER_STATUSES.map((s) => ({ value: s, label: t(`customers.status.${s}`) })),
          ]}
          w={140}
        />
        <Select
          label={t('customers.list.declarationType')}
          value={draft.declarationType || ''}
          onChange={(v) => setDraft((d) => ({ ...d, declarationType: v ?? '' }))}
          allowDeselect={false}
          data={[
            { value: '', label: t('customers.list.all') },
            ...DECLARATION_TYPES.map((d) => ({ value: d, label: t(`declarationType.${d}`) })),
          ]}
          w={160}
        />
        <Group gap="xs">
          <Button type="submit" leftSection={<IconSearch size={16} />}>
            {t('customers.list.search')}
          </Button>
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onReset}>
            {t('customers.list.reset')}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

export default function CustomerListPage() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const canMaintain = usePermission('customers:maintain');
  const canDelete = usePermission('customers:delete');
  const url = useTableSearchParams({ filterKeys: CUSTOMER_FILTER_KEYS });
  const params = useMemo(
    () => customerListParams(url.apiParams, url.filters),
    [url.apiParams, url.filters],
  );
  const query = useCustomers(params);
  const actions = useCustomerActions();

  const columns = useMemo(
    () => [
      col.accessor('username', {
        header: t('customers.field.username'),
        cell: ({ row }) => (
          <Anchor
            component={Link}
            to={customerDetailPath(row.original.customerId)}
            fw={500}
            onClick={(e) => e.stopPropagation()}
          >
            {row.original.username}
          </Anchor>
        ),
      }),
      col.accessor('companyName', {
        header: t('customers.field.companyName'),
        cell: ({ getValue }) => (
          <Text size="sm" maw={180} truncate title={getValue()}>
            {getValue()}
          </Text>
        ),
      }),
      col.accessor('city', { header: t('customers.field.city') }),
      col.accessor('portCode', {
        header: `${t('customers.field.portCode')} / ${t('customers.field.slicCode')}`,
        cell: ({ row }) => (
          <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
            {[row.original.portCode, row.original.slicCode].filter(Boolean).join(' / ')}
          </Text>
        ),
      }),
      col.accessor('upsId', { header: t('customers.field.upsId') }),
      col.accessor('accountNo', { header: t('customers.field.accountNo') }),
      col.accessor('isLocked', {
        header: t('customers.list.binding'),
        meta: { width: 110 },
        cell: ({ getValue }) => <BindingBadge isLocked={getValue()} />,
      }),
      col.accessor('accountCount', {
        header: t('customers.list.accountCount'),
        meta: { align: 'right' },
      }),
      col.accessor('status', {
        header: t('customers.field.status'),
        meta: { width: 100 },
        cell: ({ getValue }) => <CustomerStatusBadge status={getValue()} />,
      }),
      col.accessor('updateTime', {
        header: t('customers.field.updateTime'),
        cell: ({ row }) => (
          <Text size="xs" style={{ whiteSpace: 'nowrap' }}>
            {formatDateTime(row.original.updateTime ?? row.original.createTime)}
          </Text>
        ),
      }),
      col.display({
        id: 'actions',
        header: t('customers.list.actions'),
        cell: ({ row }) => {
          const c = row.original;
          const disabled = c.status === 'disabled';
          return (
            <Group gap={2} wrap="nowrap" onClick={(e) => e.stopPropagation()}>
              <Tooltip label={t('customers.action.view')}>
                <ActionIcon
                  variant="subtle"
                  aria-label={`${t('customers.action.view')} ${c.username}`}
                  onClick={() => navigate(customerDetailPath(c.customerId))}
                >
                  <IconEye size={18} />
                </ActionIcon>
              </Tooltip>
              {canMaintain && (
                <>
                  <Tooltip label={t('customers.action.maintain')}>
                    <ActionIcon
                      variant="subtle"
                      aria-label={`${t('customers.action.maintain')} ${c.username}`}
                      onClick={() => actions.edit(c)}
                    >
                      <IconEdit size={18} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip
                    label={disabled ? t('customers.action.enable') : t('customers.action.disable')}
                  >
                    <ActionIcon
                      variant="subtle"
                      color={disabled ? 'teal' : 'orange'}
                      aria-label={`${
                        disabled ? t('customers.action.enable') : t('customers.action.disable')
                      } ${c.username}`}
                      onClick={() => actions.command(disabled ? 'enable' : 'disable', c)}
                    >
                      {disabled ? <IconLockOpen size={18} /> : <IconLock size={18} />}
                    </ActionIcon>
                  </Tooltip>
                </>
              )}
              {canDelete && (
                <Tooltip label={t('customers.action.delete')}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`${t('customers.action.delete')} ${c.username}`}
                    onClick={() => actions.command('delete', c)}
                  >
                    <IconTrash size={18} />
                  </ActionIcon>
                </Tooltip>
              )}
              <FileDeclarationMenu customer={c} compact />
            </Group>
          );
        },
      }),
    ],
    // `actions` holds setters only; the columns change with the language and permissions.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, i18n.language, canMaintain, canDelete, navigate],
  );

  return (
    <PageLayout
      title={t('customers.list.title')}
      actions={
        <Permission code="customers:create">
          <Button leftSection={<IconPlus size={16} />} onClick={actions.create}>
            {t('customers.action.new')}
          </Button>
        </Permission>
      }
      filters={
        <FilterBar
          key={JSON.stringify(url.filters)}
          filters={url.filters}
          onSearch={(next) => url.setFilters(next)}
          onReset={() => url.resetFilters()}
        />
      }
    >
      <DataTable
        caption={t('customers.list.title')}
        columns={columns}
        data={query.data?.records}
        total={query.data?.total ?? 0}
        getRowId={(r) => r.customerId}
        urlState={url}
        loading={query.isFetching}
      />
      {query.isError && (
        <Text c="red" size="sm" role="alert">
          {t('customers.list.loadFailed', { message: (query.error as Error).message })}
        </Text>
      )}
      {actions.element}
    </PageLayout>
  );
}
