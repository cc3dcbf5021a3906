// The signed-in layout: header, 280 px sidebar, breadcrumb, tabs and the kept-alive page.
// Below the `sm` breakpoint (48em, phones) the sidebar is a drawer over the page: closed
// on arrival, opened by the burger, closed again when a page is chosen.
import '@mantine/dates/styles.css';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { AppShell } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { ReadBehindNotice } from '@/components/ReadBehindNotice';
import { useSettingsStore } from '@/lib/settings';
import { Breadcrumbs } from './Breadcrumbs';
import { Header } from './Header';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { Sidebar } from './Sidebar';
import { TabsView } from './TabsView';

export const SIDEBAR_WIDTH = 280;

export default function ShellLayout() {
  const { i18n } = useTranslation();
  const opened = useSettingsStore((s) => s.sidebarOpened);
  const changeSetting = useSettingsStore((s) => s.changeSetting);
  const mobile = useMediaQuery('(max-width: 48em)');
  useEffect(() => {
    if (mobile !== undefined) changeSetting('device', mobile ? 'mobile' : 'desktop');
  }, [mobile, changeSetting]);
  // The phone drawer is not the remembered desktop setting: it starts closed every time.
  const [drawerOpened, setDrawerOpened] = useState(false);
  const { pathname } = useLocation();
  const [drawerPath, setDrawerPath] = useState(pathname);
  if (drawerPath !== pathname) {
    setDrawerPath(pathname);
    setDrawerOpened(false);
  }
  return (
    <DatesProvider
      settings={{ locale: i18n.language?.startsWith('en') ? 'en' : 'zh-cn', firstDayOfWeek: 1 }}
    >
      <AppShell
        header={{ height: 56 }}
        navbar={{
          width: SIDEBAR_WIDTH,
          breakpoint: 'sm',
          collapsed: { mobile: !drawerOpened, desktop: !opened },
        }}
        padding="md"
      >
        <AppShell.Header>
          <Header drawerOpened={drawerOpened} onToggleDrawer={() => setDrawerOpened((o) => !o)} />
        </AppShell.Header>
        <AppShell.Navbar>
          <Sidebar onNavigate={() => setDrawerOpened(false)} />
        </AppShell.Navbar>
        <AppShell.Main>
          <Breadcrumbs />
          <TabsView />
          <ReadBehindNotice />
          <KeepAliveOutlet />
        </AppShell.Main>
      </AppShell>
    </DatesProvider>
  );
}
