// The layout every page of a feature uses: one h1 title (sized as h3: the shell already
// shows the app's name and the breadcrumbs), its actions on the right, the filters under it,
// then the content. Dialogs a page opens go in `children` too. A record's page adds the way
// back to its list above the title, badges beside it and its key facts under it.
import type { ReactNode } from 'react';
import { Group, Stack, Title } from '@mantine/core';

export interface PageLayoutProps {
  title: ReactNode;
  /** Buttons of the page (new, export ...), right of the title. */
  actions?: ReactNode;
  /** The filter bar or search form, between the title and the content. */
  filters?: ReactNode;
  /** Above the title: the link back to the list a record's page was opened from. */
  back?: ReactNode;
  /** Beside the title, outside the heading (a record's status badges). */
  badges?: ReactNode;
  /** Under the title (a record's login, version, a legend). */
  subtitle?: ReactNode;
  /** Narrow pages (forms) set a maximum width. */
  maw?: number;
  children?: ReactNode;
}

export function PageLayout({
  title,
  actions,
  filters,
  back,
  badges,
  subtitle,
  maw,
  children,
}: PageLayoutProps) {
  const heading = (
    <Title order={1} size="h3">
      {title}
    </Title>
  );
  const titled = badges ? (
    <Group gap="sm">
      {heading}
      {badges}
    </Group>
  ) : (
    heading
  );
  return (
    <Stack gap="md" maw={maw}>
      {back}
      <Group justify="space-between" align={subtitle ? 'flex-start' : 'center'}>
        {subtitle ? (
          <Stack gap={4}>
            {titled}
            {subtitle}
          </Stack>
        ) : (
          titled
        )}
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {filters}
      {children}
    </Stack>
  );
}
