// `/customers-profile/customers-detail?id=`: the customer's profile (every field, status,
// Easy-clear binding, audit fields) with maintain/disable/enable/delete, its login accounts,
// and links to its declarations and to filing one for each type it files.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconEdit,
  IconLock,
  IconLockOpen,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { Permission } from '@/components/Permission';
import { formatDateTime } from '@/lib/dates';
import { useCustomer } from '@/shared/customers/api/getCustomer';
import {
  CUSTOMERS_PATH,
  customerDeclarationsPath,
  fileDeclarationPath,
  filedTypes,
} from '@/features/customers/model/links';
import type { CustomerDetail } from '@/shared/customers/model/types';
import { ContactBookEditor } from '@/shared/contact-book/components/ContactBookEditor';
import { AccountsTable } from '@/features/customers/components/AccountsTable';
import { FileDeclarationMenu } from '@/features/customers/components/FileDeclarationMenu';
import { BindingBadge, CustomerStatusBadge } from '@/features/customers/components/StatusBadges';
import { useCustomerActions } from '@/features/customers/components/useCustomerActions';

const PROFILE_FIELDS = [
  'username',
  'companyName',
  'city',
  'postalCode',
  'portCode',
  'slicCode',
  'upsAccount',
  'upsId',
  'accountNo',
  'email',
  'scc',
] as const;

function Item({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-all' }}>
        {children || '—'}
      </Text>
    </Stack>
  );
}

function Profile({ c }: { c: CustomerDetail }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
        {PROFILE_FIELDS.map((f) => (
          <Item key={f} label={t(`customers.field.${f}`)}>
            {c[f]}
          </Item>
        ))}
        <Item label={t('customers.field.declarationTypes')}>
          {(c.declarationTypes ?? []).length > 0 ? (
            <Group gap={4}>
              {(c.declarationTypes ?? []).map((d) => (
                <Badge key={d} variant="light" size="sm">
                  {t(`declarationType.${d}`)}
                </Badge>
              ))}
            </Group>
          ) : null}
        </Item>
        <Item label={t('customers.field.status')}>
          <CustomerStatusBadge status={c.status} />
        </Item>
        <Item label={t('customers.list.binding')}>
          <BindingBadge isLocked={c.isLocked} />
        </Item>
        <Item label={t('customers.field.createBy')}>{c.createBy}</Item>
        <Item label={t('customers.field.createTime')}>{formatDateTime(c.createTime)}</Item>
        <Item label={t('customers.field.updateBy')}>{c.updateBy}</Item>
        <Item label={t('customers.field.updateTime')}>{formatDateTime(c.updateTime)}</Item>
        <Item label={t('customers.field.version')}>{String(c.version)}</Item>
      </SimpleGrid>
    </Paper>
  );
}

export default function CustomerDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = search.get('id');
  const query = useCustomer(id);
  const actions = useCustomerActions({ onDeleted: () => navigate(CUSTOMERS_PATH) });
  const c = query.data;

  const back = (
    <Anchor component={Link} to={CUSTOMERS_PATH} size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('customers.detail.back')}
      </Group>
    </Anchor>
  );

  if (!id || query.isError) {
    return (
      <Stack>
        {back}
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} role="alert">
          {!id
            ? t('customers.detail.noId')
            : t('customers.detail.loadFailed', { message: (query.error as Error).message })}
        </Alert>
      </Stack>
    );
  }
  if (!c) {
    return (
      <Stack>
        {back}
        <Skeleton h={32} w={320} />
        <Skeleton h={220} />
      </Stack>
    );
  }

  const disabled = c.status === 'disabled';
  return (
    <PageLayout
      back={back}
      title={c.companyName}
      subtitle={
        <Group gap="xs">
          <Text size="sm" c="dimmed">
            {c.username}
          </Text>
          <CustomerStatusBadge status={c.status} />
          <BindingBadge isLocked={c.isLocked} />
        </Group>
      }
      actions={
        <>
          <Permission code="customers:maintain">
            <Button
              variant="default"
              leftSection={<IconEdit size={16} />}
              onClick={() => actions.edit(c)}
            >
              {t('customers.action.maintain')}
            </Button>
            <Button
              variant="light"
              color={disabled ? 'teal' : 'orange'}
              leftSection={disabled ? <IconLockOpen size={16} /> : <IconLock size={16} />}
              onClick={() => actions.command(disabled ? 'enable' : 'disable', c)}
            >
              {disabled ? t('customers.action.enable') : t('customers.action.disable')}
            </Button>
          </Permission>
          <Permission code="customers:delete">
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => actions.command('delete', c)}
            >
              {t('customers.action.delete')}
            </Button>
          </Permission>
          <FileDeclarationMenu customer={c} />
        </>
      }
    >
      <Profile c={c} />

      <AccountsTable
        customerId={c.customerId}
        accounts={c.accounts ?? []}
        onNewLogin={actions.showPassword}
      />

      <ContactBookEditor customerId={c.customerId} />

      <Stack gap="xs">
        <Title order={2} size="h4">
          {t('customers.detail.declarations')}
        </Title>
        <Paper withBorder p="md">
          <Stack gap="xs">
            {filedTypes(c.declarationTypes).map((type) => (
              <Group key={type} justify="space-between">
                <Text size="sm" fw={500}>
                  {t(`declarationType.${type}`)}
                </Text>
                <Group gap="md">
                  <Anchor
                    component={Link}
                    size="sm"
                    to={customerDeclarationsPath(type, c.username)}
                  >
                    {t('customers.detail.viewDeclarations')}
                  </Anchor>
                  {!disabled && (
                    <Anchor
                      component={Link}
                      size="sm"
                      to={fileDeclarationPath(type, c.customerId)}
                      aria-label={`${t('customers.detail.fileType')} ${t(`declarationType.${type}`)}`}
                    >
                      {t('customers.detail.fileType')}
                    </Anchor>
                  )}
                </Group>
              </Group>
            ))}
          </Stack>
        </Paper>
      </Stack>

      {actions.element}
    </PageLayout>
  );
}
