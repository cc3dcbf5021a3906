// The customer's login accounts: add a login, disable/enable, force a password reset and
// transfer to a new login (each confirmed; the server's refusal shown in the dialog).
import { useState } from 'react';
import { Badge, Button, Group, Menu, Stack, Table, Text, Title } from '@mantine/core';
import { IconDots, IconUserPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/dates';
import { message } from '@/lib/message';
import { ApiError } from '@/lib/request';
import { usePermission } from '@/lib/permissions';
import { useDisableAccount } from '../api/disableAccount';
import { useEnableAccount } from '../api/enableAccount';
import { useForceAccountPasswordReset } from '../api/forceAccountPasswordReset';
import { useTransferAccount } from '../api/transferAccount';
import type { CustomerAccount, NewLogin } from '@/shared/customers/model/types';
import { validateUsername } from '../model/validation';
import { AddLoginDialog } from './AddLoginDialog';
import { ConfirmDialog } from '@/components/ConfirmDialog';

type AccountCommand = 'disable' | 'enable' | 'force-password-reset' | 'transfer';

const COMMANDS: AccountCommand[] = ['disable', 'enable', 'force-password-reset', 'transfer'];

function commandsFor(a: CustomerAccount): AccountCommand[] {
  if (a.status === 'deleted' || a.status === 'transferred') return [];
  return COMMANDS.filter((c) => (a.status === 'disabled' ? c === 'enable' : c !== 'enable'));
}

export function AccountsTable({
  customerId,
  accounts,
  onNewLogin,
}: {
  customerId: string;
  accounts: CustomerAccount[];
  onNewLogin: (login: NewLogin) => void;
}) {
  const { t } = useTranslation();
  const canMaintain = usePermission('customers:maintain');
  // One hook per endpoint; the dialog runs the one its command names.
  const commands = {
    disable: useDisableAccount(),
    enable: useEnableAccount(),
    'force-password-reset': useForceAccountPasswordReset(),
    transfer: useTransferAccount(),
  };
  const [adding, setAdding] = useState(false);
  const [pending, setPending] = useState<{
    account: CustomerAccount;
    command: AccountCommand;
  } | null>(null);
  const [error, setError] = useState<string | null>(null);

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t('customers.accounts.title')}
        </Title>
        {canMaintain && (
          <Button
            size="sm"
            variant="light"
            leftSection={<IconUserPlus size={16} />}
            onClick={() => setAdding(true)}
          >
            {t('customers.accounts.add')}
          </Button>
        )}
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table striped withTableBorder aria-label={t('customers.accounts.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('customers.accounts.username')}</Table.Th>
              <Table.Th>{t('customers.accounts.email')}</Table.Th>
              <Table.Th>{t('customers.accounts.status')}</Table.Th>
              <Table.Th>{t('customers.accounts.password')}</Table.Th>
              <Table.Th>{t('customers.field.createTime')}</Table.Th>
              {canMaintain && <Table.Th>{t('customers.list.actions')}</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {accounts.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={canMaintain ? 6 : 5}>
                  <Text size="sm" c="dimmed" ta="center">
                    {t('customers.accounts.none')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {accounts.map((a) => {
              const commands = commandsFor(a);
              return (
                <Table.Tr key={a.accountId}>
                  <Table.Td fw={500}>{a.username}</Table.Td>
                  <Table.Td>{a.email}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={a.status === 'active' ? 'teal' : 'gray'}>
                      {t(`customers.accountStatus.${a.status}`, { defaultValue: a.status })}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {a.mustSetPassword
                        ? t('customers.accounts.mustSetPassword')
                        : a.hasPassword
                          ? t('customers.accounts.passwordSet')
                          : t('customers.accounts.noPassword')}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(a.createTime)}</Table.Td>
                  {canMaintain && (
                    <Table.Td>
                      {commands.length > 0 && (
                        <Menu position="bottom-end" withinPortal>
                          <Menu.Target>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              rightSection={<IconDots size={14} />}
                              aria-label={`${t('customers.list.actions')} ${a.username}`}
                            >
                              {t('customers.list.actions')}
                            </Button>
                          </Menu.Target>
                          <Menu.Dropdown>
                            {commands.map((command) => (
                              <Menu.Item
                                key={command}
                                color={command === 'disable' ? 'red' : undefined}
                                onClick={() => {
                                  setError(null);
                                  setPending({ account: a, command });
                                }}
                              >
                                {t(`customers.accounts.action.${command}`)}
                              </Menu.Item>
                            ))}
                          </Menu.Dropdown>
                        </Menu>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      {adding && (
        <AddLoginDialog
          customerId={customerId}
          onClose={() => setAdding(false)}
          onAdded={(login) => {
            setAdding(false);
            message.success(t('customers.accounts.added', { username: login.username }));
            onNewLogin(login);
          }}
        />
      )}
      {pending && (
        <ConfirmDialog
          title={t(`customers.accounts.action.${pending.command}`)}
          message={t(`customers.accounts.confirm.${pending.command}`, {
            username: pending.account.username,
          })}
          confirmLabel={t(`customers.accounts.action.${pending.command}`)}
          danger={pending.command === 'disable'}
          withReason={pending.command === 'disable' || pending.command === 'enable'}
          input={
            pending.command === 'transfer'
              ? {
                  label: t('customers.accounts.newUsername'),
                  description: t('customers.accounts.transferHint'),
                  validate: (v) => {
                    const key = validateUsername(v);
                    return key ? t(key) : null;
                  },
                }
              : undefined
          }
          loading={commands[pending.command].isPending}
          error={error}
          onClose={() => setPending(null)}
          onConfirm={({ reason, input }) => {
            setError(null);
            commands[pending.command].mutate(
              { accountId: pending.account.accountId, reason, newUsername: input ?? '' },
              {
                onSuccess: () => {
                  message.success(t(`customers.accounts.done.${pending.command}`));
                  setPending(null);
                },
                onError: (e) => {
                  const field = e instanceof ApiError ? e.fieldErrors : [];
                  setError(field.length > 0 ? field.map((f) => f.message).join('; ') : e.message);
                },
              },
            );
          }}
        />
      )}
    </Stack>
  );
}
