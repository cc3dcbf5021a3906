// /platform-mgt/employee: the staff list (keyword, paging of 10 in the URL) with the row
// actions the user's permission codes allow; every command reloads the list at its
// position (read-your-writes).
import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Button, Group, Menu, Stack, Text } from '@mantine/core';
import { IconDots, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { DataTable, dataTableColumns, useTableSearchParams } from '@/components/DataTable';
import { Permission } from '@/components/Permission';
import { hasPermission, type PermissionCode } from '@/lib/permissions';
import { showMessage } from '@/lib/message';
import { forceRelogin } from '@/lib/request';
import { useSessionStore } from '@/lib/session';
import { useDeleteStaff } from '@/features/platform/api/deleteStaff';
import { useDisableStaff, useEnableStaff } from '@/features/platform/api/staffSwitch';
import { useForceStaffPasswordReset } from '@/features/platform/api/forceStaffPasswordReset';
import { useStaff } from '@/features/platform/api/getStaff';
import { useTransferStaffAuthority } from '@/features/platform/api/transferStaffAuthority';
import type { StaffRecord } from '@/shared/platform/api/types';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { KeywordSearch } from '@/shared/platform/components/KeywordSearch';
import { RoleBadges } from '@/features/platform/components/RoleBadges';
import { formatTime } from '@/lib/dates';
import { GRANT_CODES, roleCodesOf } from '@/features/platform/model/permissions';
import { AssignRolesDialog } from '@/features/platform/staff/AssignRolesDialog';
import { StaffEditDialog } from '@/features/platform/staff/StaffEditDialog';
import { PageLayout } from '@/components/PageLayout';

type Dialog = {
  kind: 'edit' | 'roles' | 'delete' | 'disable' | 'enable' | 'forceReset' | 'transfer';
  row: StaffRecord;
} | null;

const col = dataTableColumns<StaffRecord>();

export default function StaffListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const held = useSessionStore((s) => s.permissions);
  const me = useSessionStore((s) => s.userinfo?.userName);
  const url = useTableSearchParams({ filterKeys: ['keyword'] as const });
  const query = useStaff(url.apiParams);
  const deleteStaff = useDeleteStaff();
  const disableStaff = useDisableStaff();
  const enableStaff = useEnableStaff();
  const forceReset = useForceStaffPasswordReset();
  const transfer = useTransferStaffAuthority();
  const [dialog, setDialog] = useState<Dialog>(null);

  const can = (code: PermissionCode | readonly PermissionCode[]) => hasPermission(held, code);

  const columns = useMemo(
    () => [
      col.accessor('staffId', { header: t('platform.staff.col.staffId') }),
      col.accessor('staffName', { header: t('platform.staff.col.staffName') }),
      col.accessor('staffEmail', { header: t('platform.staff.col.staffEmail') }),
      col.accessor('username', { header: t('platform.staff.col.username') }),
      col.accessor('roleList', {
        header: t('platform.staff.col.roles'),
        cell: ({ row }) => <RoleBadges roles={roleCodesOf(row.original.roleList)} />,
      }),
      col.accessor('status', {
        header: t('platform.staff.col.status'),
        cell: ({ getValue }) => {
          const status = String(getValue());
          return (
            <Badge size="sm" variant="dot" color={status === 'active' ? 'teal' : 'gray'}>
              {t(`platform.staff.status.${status}`, { defaultValue: status })}
            </Badge>
          );
        },
      }),
      col.accessor('hasPassword', {
        header: t('platform.staff.col.hasPassword'),
        cell: ({ getValue }) => (getValue() ? t('platform.common.yes') : t('platform.common.no')),
      }),
      col.accessor('updateTime', {
        header: t('platform.staff.col.updated'),
        cell: ({ row }) => (
          <Stack gap={0}>
            <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
              {formatTime(row.original.updateTime)}
            </Text>
            {row.original.updateBy && (
              <Text size="xs" c="dimmed">
                {row.original.updateBy}
              </Text>
            )}
          </Stack>
        ),
      }),
      col.display({
        id: 'actions',
        header: t('platform.common.actions'),
        cell: ({ row }) => {
          const r = row.original;
          if (r.username === me) return null;
          const open = (kind: NonNullable<Dialog>['kind']) => setDialog({ kind, row: r });
          const disabled = r.status === 'disabled';
          const more = [
            can('staff:maintain') && (
              <Menu.Item key="toggle" onClick={() => open(disabled ? 'enable' : 'disable')}>
                {t(disabled ? 'platform.staff.action.enable' : 'platform.staff.action.disable')}
              </Menu.Item>
            ),
            can('staff:maintain') && (
              <Menu.Item key="reset" onClick={() => open('forceReset')}>
                {t('platform.staff.action.forceReset')}
              </Menu.Item>
            ),
            can('staff:permission:transfer') &&
              !roleCodesOf(r.roleList).includes('SUPER_ADMIN') &&
              !disabled && (
                <Menu.Item key="transfer" onClick={() => open('transfer')}>
                  {t('platform.staff.action.transfer')}
                </Menu.Item>
              ),
            can('staff:delete') && (
              <Menu.Item key="delete" color="red" onClick={() => open('delete')}>
                {t('platform.staff.action.delete')}
              </Menu.Item>
            ),
          ].filter(Boolean);
          return (
            <Group gap={4} wrap="nowrap">
              <Permission code="staff:maintain">
                <Button size="compact-xs" variant="subtle" onClick={() => open('edit')}>
                  {t('platform.staff.action.maintain')}
                </Button>
              </Permission>
              <Permission code={GRANT_CODES}>
                <Button size="compact-xs" variant="subtle" onClick={() => open('roles')}>
                  {t('platform.staff.action.roles')}
                </Button>
              </Permission>
              {more.length > 0 && (
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      aria-label={`${t('platform.staff.action.more')} ${r.username}`}
                    >
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>{more}</Menu.Dropdown>
                </Menu>
              )}
            </Group>
          );
        },
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, held, me],
  );

  const close = () => setDialog(null);
  const name = dialog ? dialog.row.staffName || dialog.row.username : '';

  const confirmFor = (d: NonNullable<Dialog>) => {
    const base = { id: d.row.id, version: d.row.version };
    switch (d.kind) {
      case 'delete':
        return {
          title: t('platform.staff.confirm.deleteTitle'),
          message: t('platform.staff.confirm.delete', { name }),
          danger: true,
          run: () => deleteStaff.mutateAsync(base),
          done: t('platform.staff.done.deleted'),
        };
      case 'disable':
      case 'enable':
        return {
          title: t(`platform.staff.confirm.${d.kind}Title`),
          message: t(`platform.staff.confirm.${d.kind}`, { name }),
          withReason: true,
          danger: d.kind === 'disable',
          run: (reason: string) =>
            (d.kind === 'disable' ? disableStaff : enableStaff).mutateAsync({ ...base, reason }),
          done: t(
            d.kind === 'disable' ? 'platform.staff.done.disabled' : 'platform.staff.done.enabled',
          ),
        };
      case 'forceReset':
        return {
          title: t('platform.staff.confirm.resetTitle'),
          message: t('platform.staff.confirm.reset', { name }),
          run: () => forceReset.mutateAsync(base),
          done: t('platform.staff.done.reset'),
        };
      case 'transfer':
        return {
          title: t('platform.staff.confirm.transferTitle'),
          message: t('platform.staff.confirm.transfer', { name }),
          danger: true,
          run: () => transfer.mutateAsync(base),
          done: t('platform.staff.done.transferred'),
          after: () => forceRelogin(),
        };
      default:
        return null;
    }
  };
  const confirm = dialog ? confirmFor(dialog) : null;

  return (
    <PageLayout
      title={t('platform.staff.title')}
      actions={
        <Permission code="staff:create">
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => navigate('/platform-mgt/add')}
          >
            {t('platform.staff.addButton')}
          </Button>
        </Permission>
      }
      filters={
        <KeywordSearch
          key={url.filters.keyword}
          initial={url.filters.keyword}
          placeholder={t('platform.staff.keywordPlaceholder')}
          onSearch={(keyword) => url.setFilters({ keyword })}
          onReset={url.resetFilters}
        />
      }
    >
      <DataTable
        columns={columns}
        data={query.data?.records}
        total={query.data?.total ?? 0}
        getRowId={(r) => r.id}
        urlState={url}
        loading={query.isFetching}
        caption={t('platform.staff.title')}
      />
      {dialog?.kind === 'edit' && <StaffEditDialog row={dialog.row} onClose={close} />}
      {dialog?.kind === 'roles' && <AssignRolesDialog row={dialog.row} onClose={close} />}
      {confirm && (
        <ConfirmDialog
          title={confirm.title}
          message={confirm.message}
          withReason={'withReason' in confirm ? confirm.withReason : false}
          reasonLabel={t('platform.staff.confirm.reason')}
          danger={confirm.danger}
          onConfirm={async ({ reason }) => {
            await confirm.run(reason ?? '');
            showMessage('success', confirm.done);
            if ('after' in confirm && confirm.after) confirm.after();
          }}
          onClose={close}
        />
      )}
    </PageLayout>
  );
}
