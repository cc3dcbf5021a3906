// Header (spec 2.5): product title, department or company label, admin profile popover,
// language and colour scheme, the upload-history slot, change password and logout.
import { lazy, Suspense, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Burger,
  Group,
  Menu,
  Popover,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconKey, IconLogout, IconUserCircle } from '@tabler/icons-react';
import { ColorSchemeToggle } from '@/components/ColorSchemeToggle';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { useTranslation } from 'react-i18next';
import { useStaffProfile } from '@/shared/auth/api/staffProfile';
import { useLogout } from '@/shared/auth/useLogout';
import { isAdmin, isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { useSettingsStore } from '@/lib/settings';
import { UploadHistorySlot } from './HeaderSlots';

const ChangePasswordDialog = lazy(() => import('@/shared/auth/components/ChangePasswordDialog'));

function AdminProfile() {
  const { t } = useTranslation();
  const { data, isLoading } = useStaffProfile();
  return (
    <Popover position="bottom-end" withArrow shadow="md">
      <Popover.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={t('header.profile')}>
          <IconUserCircle size={22} />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        {isLoading ? (
          <Text size="sm">{t('common.loading')}</Text>
        ) : (
          <Stack gap={4}>
            <Text size="sm">
              {t('header.staffId')}: <b>{data?.staffId ?? '-'}</b>
            </Text>
            <Text size="sm">
              {t('header.email')}: <b>{data?.staffEmail ?? '-'}</b>
            </Text>
          </Stack>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}

export function Header() {
  const { t } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const userinfo = useSessionStore((s) => s.userinfo);
  const { sidebarOpened, toggleSidebar } = useSettingsStore();
  const { confirmLogout } = useLogout();
  const [passwordOpen, setPasswordOpen] = useState(false);

  const department = userinfo?.department
    ? isCustomer(role)
      ? userinfo.department
      : t(`role.${userinfo.department}`, { defaultValue: userinfo.department })
    : role
      ? t(`role.${role}`)
      : '';

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap">
        <Burger
          opened={sidebarOpened}
          onClick={toggleSidebar}
          size="sm"
          aria-label={sidebarOpened ? t('header.collapseMenu') : t('header.expandMenu')}
        />
        <Title order={1} size="h4" style={{ whiteSpace: 'nowrap' }}>
          {t('app.title')}
        </Title>
      </Group>
      <Group gap="xs" wrap="nowrap">
        {department && (
          <Badge variant="light" size="lg" radius="sm" tt="none" visibleFrom="sm">
            {department}
          </Badge>
        )}
        <UploadHistorySlot />
        <LanguageSwitch />
        <ColorSchemeToggle />
        {isAdmin(role) && <AdminProfile />}
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Anchor component="button" type="button" size="sm">
              {userinfo?.displayName || userinfo?.userName || t('header.account')}
            </Anchor>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setPasswordOpen(true)}>
              {t('password.title')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Anchor component="button" type="button" size="sm" c="red" onClick={confirmLogout}>
          <IconLogout size={14} style={{ verticalAlign: 'middle', marginRight: 4 }} />
          {t('header.logout')}
        </Anchor>
      </Group>
      {passwordOpen && (
        <Suspense fallback={null}>
          <ChangePasswordDialog opened={passwordOpen} onClose={() => setPasswordOpen(false)} />
        </Suspense>
      )}
    </Group>
  );
}
