// The 280 px sidebar (spec 2.5): menu from the permitted routes, and at the bottom the admin
// export-report button or the contact block.
import { useMemo, useState } from 'react';
import { Badge, NavLink, ScrollArea, Stack, ThemeIcon } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { useSessionStore } from '@/lib/session';
import { useRouteHandles } from '../routes/useRouteHandles';
import { protectedRoutes } from '../routes/routes';
import { buildMenu, groupPathTo, openGroupsAfterSelect, topLevelOf, type MenuItem } from './menu';
import { SidebarFooter } from './SidebarFooter';
import { useWaitingOnMe } from './useWaitingOnMe';

/** `onNavigate`: a page was chosen (the phone drawer closes). */
export function Sidebar({ onNavigate }: { onNavigate?: () => void } = {}) {
  const { t } = useTranslation();
  const location = useLocation();
  const leaf = useRouteHandles().at(-1);
  const { role, permissions } = useSessionStore(
    useShallow((s) => ({ role: s.role, permissions: s.permissions })),
  );
  const menu = useMemo(
    () => buildMenu(protectedRoutes, { role, permissions }),
    [role, permissions],
  );

  // A customer's exceptions group carries how many exceptions wait on them.
  const waiting = useWaitingOnMe(role);
  const badgeFor = (item: MenuItem) =>
    waiting > 0 && item.path === '/customer-exception' ? (
      <Badge
        size="sm"
        color="red"
        circle={waiting < 10}
        aria-label={t('shell.waitingOnYou', { count: waiting })}
      >
        {waiting > 9 ? '9+' : waiting}
      </Badge>
    ) : undefined;

  const activeKey = leaf?.meta.activeMenu ?? location.pathname;
  const activeTop = topLevelOf(menu, activeKey);
  const [opened, setOpened] = useState<string[]>(() => groupPathTo(menu, activeKey) ?? []);
  // Open the groups leading to the page when it changes (another tab, a link, the URL).
  const [seenKey, setSeenKey] = useState(activeKey);
  if (seenKey !== activeKey) {
    setSeenKey(activeKey);
    setOpened((prev) => openGroupsAfterSelect(menu, prev, activeKey));
  }

  const toggle = (key: string) =>
    setOpened((prev) => (prev.includes(key) ? prev.filter((k) => k !== key) : [...prev, key]));

  const render = (item: MenuItem, depth: number) => {
    const top = depth === 0;
    const highlighted = top && item.key === activeTop;
    const icon = item.icon ? (
      <ThemeIcon
        size="sm"
        variant={highlighted ? 'filled' : item.specialIcon ? 'gradient' : 'light'}
        color={highlighted ? undefined : 'gray'}
      >
        <item.icon size={16} />
      </ThemeIcon>
    ) : undefined;
    if (item.children) {
      return (
        <NavLink
          key={item.key}
          // A real button: focusable and operable with Enter/Space.
          component="button"
          type="button"
          aria-expanded={opened.includes(item.key)}
          label={t(item.title)}
          leftSection={icon}
          rightSection={badgeFor(item)}
          opened={opened.includes(item.key)}
          onChange={() => toggle(item.key)}
          childrenOffset={20}
        >
          {item.children.map((child) => render(child, depth + 1))}
        </NavLink>
      );
    }
    if (item.external) {
      return (
        <NavLink
          key={item.key}
          label={t(item.title)}
          leftSection={icon}
          href={item.path}
          target="_blank"
          rel="noopener noreferrer"
        />
      );
    }
    return (
      <NavLink
        key={item.key}
        component={Link}
        to={item.path}
        label={t(item.title)}
        leftSection={icon}
        active={item.path === activeKey}
        onClick={() => {
          setOpened((prev) => openGroupsAfterSelect(menu, prev, item.key));
          onNavigate?.();
        }}
      />
    );
  };

  return (
    <Stack h="100%" gap={0}>
      <ScrollArea style={{ flex: 1 }} p="xs" component="nav" aria-label={t('shell.menu')}>
        {menu.map((item) => render(item, 0))}
      </ScrollArea>
      <SidebarFooter />
    </Stack>
  );
}
