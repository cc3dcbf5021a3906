// The tab view (spec 2.5): one tab per visited page, affix tabs cannot be closed.
import { useEffect } from 'react';
import { ActionIcon, Button, CloseButton, Group, Menu, ScrollArea } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSessionStore } from '@/lib/session';
import { roleAllowed } from '@/lib/roles';
import { useRouteHandles } from '../routes/useRouteHandles';
import { effectiveRoles, flattenRoutes } from '../routes/flatten';
import { protectedRoutes } from '../routes/routes';
import { useTabsStore, type TabView } from '@/shared/tabs/tabsStore';

const flat = flattenRoutes(protectedRoutes);

export function TabsView() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const leaf = useRouteHandles().at(-1);
  const role = useSessionStore((s) => s.role);
  const { visitedViews, addView, updateVisitedView, delView, delOthersViews, delAllViews } =
    useTabsStore();

  // Affix tabs the user may open are always there.
  useEffect(() => {
    for (const r of flat) {
      if (r.meta.affix && r.meta.title && roleAllowed(role, effectiveRoles(r.chain))) {
        addView({
          path: r.fullPath,
          fullPath: r.fullPath,
          name: r.name,
          title: r.meta.title,
          affix: true,
        });
      }
    }
  }, [role, addView]);

  // Add the current page if absent, else update it in place (its query may have changed).
  useEffect(() => {
    if (!leaf?.meta.title || leaf.meta.public) return;
    const view: TabView = {
      path: location.pathname,
      fullPath: location.pathname + location.search,
      name: leaf.name,
      title: leaf.meta.title,
      affix: leaf.meta.affix,
      noCache: leaf.meta.noCache,
    };
    addView(view);
    updateVisitedView(view);
  }, [leaf, location.pathname, location.search, addView, updateVisitedView]);

  const goToLastOr = (views: TabView[]) => {
    const last = views.at(-1);
    navigate(last ? last.fullPath : '/');
  };

  const close = (view: TabView) => {
    delView(view.path);
    if (view.path === location.pathname) {
      goToLastOr(useTabsStore.getState().visitedViews);
    }
  };

  const active = visitedViews.find((v) => v.path === location.pathname);

  return (
    <Group gap={4} wrap="nowrap" mb="sm" role="tablist" aria-label={t('shell.tabs')}>
      <ScrollArea type="hover" scrollbarSize={4} style={{ flex: 1 }}>
        <Group gap={4} wrap="nowrap">
          {visitedViews.map((view) => {
            const selected = view.path === location.pathname;
            return (
              <Group
                key={view.path}
                gap={0}
                wrap="nowrap"
                role="tab"
                aria-selected={selected}
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  border: '1px solid var(--mantine-color-default-border)',
                  background: selected ? 'var(--mantine-primary-color-light)' : undefined,
                }}
              >
                <Button
                  variant="subtle"
                  size="compact-sm"
                  color={selected ? undefined : 'gray'}
                  onClick={() => navigate(view.fullPath)}
                >
                  {t(view.title)}
                </Button>
                {!view.affix && (
                  <CloseButton
                    size="sm"
                    aria-label={t('shell.closeTab', { title: t(view.title) })}
                    onClick={() => close(view)}
                  />
                )}
              </Group>
            );
          })}
        </Group>
      </ScrollArea>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="default" aria-label={t('shell.tabActions')}>
            <IconChevronDown size={16} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item disabled={!active || active.affix} onClick={() => active && close(active)}>
            {t('shell.closeCurrent')}
          </Menu.Item>
          <Menu.Item onClick={() => delOthersViews(location.pathname)}>
            {t('shell.closeOthers')}
          </Menu.Item>
          <Menu.Item
            onClick={() => {
              delAllViews();
              goToLastOr(useTabsStore.getState().visitedViews);
            }}
          >
            {t('shell.closeAll')}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}
