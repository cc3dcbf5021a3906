import { Anchor, Breadcrumbs as MantineBreadcrumbs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteHandles } from '../routes/useRouteHandles';

/** Breadcrumb from the titles of the matched routes (spec 2.5). */
export function Breadcrumbs() {
  const { t } = useTranslation();
  const crumbs = useRouteHandles().filter(
    (h, i, all) => h.meta.title && h.meta.title !== all[i - 1]?.meta.title,
  );
  if (crumbs.length === 0) return null;
  return (
    <MantineBreadcrumbs separator="/" mb="xs" aria-label={t('shell.breadcrumb')}>
      {crumbs.map((crumb, i) =>
        i < crumbs.length - 1 && crumb.navigable ? (
          <Anchor component={Link} to={crumb.fullPath} size="sm" key={crumb.fullPath}>
            {t(crumb.meta.title!)}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed" key={crumb.fullPath}>
            {t(crumb.meta.title!)}
          </Text>
        ),
      )}
    </MantineBreadcrumbs>
  );
}
