// Header (spec 2.5): product title, department or company label, admin profile popover,
// language and colour scheme, the upload-history slot, change password and logout.
// The user menu (the person's name) holds every one of the person's own actions, so on a
// phone, where only the burger, the title and that menu fit, all of them stay reachable.
import { lazy, Suspense, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Burger,
  Group,
  Menu,
  Popover,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import {
  IconChevronDown,
  IconFileUpload,
  IconHistory,
  IconKey,
  IconLanguage,
  IconLogout,
  IconMoon,
  IconSun,
  IconUserCircle,
} from '@tabler/icons-react';
import { useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { ColorSchemeToggle } from '@/components/ColorSchemeToggle';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { useTranslation } from 'react-i18next';
import { useStaffProfile } from '@/shared/auth/api/staffProfile';
import { useLogout } from '@/shared/auth/useLogout';
import { isAdmin, isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { setLanguage } from '@/lib/i18n';
import { useSettingsStore } from '@/lib/settings';
import { useUploadStore } from '@/features/upload/model/uploadStore';
import { UploadHistorySlot } from './HeaderSlots';
import { TrackingSearch } from './TrackingSearch';
import { useUploadEnabled } from './useUploadEnabled';

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

export interface HeaderProps {
  /** The phone drawer (below `sm`) is open. */
  drawerOpened?: boolean;
  onToggleDrawer?: () => void;
}

export function Header({ drawerOpened = false, onToggleDrawer }: HeaderProps) {
  const { t, i18n } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const userinfo = useSessionStore((s) => s.userinfo);
  const { sidebarOpened, toggleSidebar } = useSettingsStore();
  const { confirmLogout } = useLogout();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const uploadEnabled = useUploadEnabled();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const lang = i18n.language?.startsWith('en') ? 'en' : 'zh';
  const name = userinfo?.displayName || userinfo?.userName || t('header.account');

  const department = userinfo?.department
    ? isCustomer(role)
      ? userinfo.department
      : t(`role.${userinfo.department}`, { defaultValue: userinfo.department })
    : role
      ? t(`role.${role}`)
      : '';

  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Burger
          visibleFrom="sm"
          opened={sidebarOpened}
          onClick={toggleSidebar}
          size="sm"
          aria-label={sidebarOpened ? t('header.collapseMenu') : t('header.expandMenu')}
        />
        <Burger
          hiddenFrom="sm"
          opened={drawerOpened}
          onClick={onToggleDrawer}
          size="sm"
          aria-label={drawerOpened ? t('header.collapseMenu') : t('header.expandMenu')}
          aria-expanded={drawerOpened}
        />
        {/* A phone shows the short name: the full one would be cut. */}
        <Title
          order={1}
          size="h4"
          miw={0}
          visibleFrom="sm"
          style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
        >
          {t('app.title')}
        </Title>
        <Title
          order={1}
          size="h5"
          miw={0}
          hiddenFrom="sm"
          title={t('app.title')}
          style={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
        >
          {t('app.shortTitle')}
        </Title>
      </Group>
      <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
        {role && <TrackingSearch />}
        {department && (
          <Badge variant="light" size="lg" radius="sm" tt="none" visibleFrom="sm">
            {department}
          </Badge>
        )}
        <UploadHistorySlot />
        <Box visibleFrom="sm">
          <LanguageSwitch />
        </Box>
        <Box visibleFrom="sm">
          <ColorSchemeToggle />
        </Box>
        {isAdmin(role) && (
          <Box visibleFrom="sm">
            <AdminProfile />
          </Box>
        )}
        <Menu position="bottom-end" withinPortal width={240}>
          <Menu.Target>
            <UnstyledButton aria-label={t('header.userMenu', { name })}>
              <Group gap={4} wrap="nowrap">
                <IconUserCircle size={22} />
                <Text size="sm" visibleFrom="sm" c="blue">
                  {name}
                </Text>
                <IconChevronDown size={14} />
              </Group>
            </UnstyledButton>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Label>
              {name}
              {department ? ` · ${department}` : ''}
            </Menu.Label>
            <Menu.Item
              leftSection={<IconLanguage size={16} />}
              lang={lang === 'en' ? 'zh' : 'en'}
              onClick={() => setLanguage(lang === 'en' ? 'zh' : 'en')}
            >
              {t('header.languageItem', { language: lang === 'en' ? '中文' : 'English' })}
            </Menu.Item>
            <Menu.Item
              leftSection={scheme === 'dark' ? <IconSun size={16} /> : <IconMoon size={16} />}
              onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}
            >
              {scheme === 'dark' ? t('header.light') : t('header.dark')}
            </Menu.Item>
            {uploadEnabled && (
              <>
                <Menu.Divider />
                <Menu.Item
                  leftSection={<IconFileUpload size={16} />}
                  onClick={() => useUploadStore.getState().setUploadOpen(true)}
                >
                  {t('upload.title')}
                </Menu.Item>
                <Menu.Item
                  leftSection={<IconHistory size={16} />}
                  onClick={() => useUploadStore.getState().setHistoryOpen(true)}
                >
                  {t('upload.historyTitle')}
                </Menu.Item>
              </>
            )}
            <Menu.Divider />
            <Menu.Item leftSection={<IconKey size={16} />} onClick={() => setPasswordOpen(true)}>
              {t('password.title')}
            </Menu.Item>
            <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={confirmLogout}>
              {t('header.logout')}
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
        <Anchor
          component="button"
          type="button"
          size="sm"
          c="red"
          onClick={confirmLogout}
          visibleFrom="sm"
          style={{ whiteSpace: 'nowrap' }}
        >
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
