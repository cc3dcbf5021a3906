import { Card, Stack, Text } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteMeta } from '@/shared/routing/useRouteMeta';
import { PageLayout } from '@/components/PageLayout';

/** Stands in for a page whose issue has not landed yet; shows the route's title. */
export default function PlaceholderPage() {
  const { t } = useTranslation();
  const meta = useRouteMeta();
  return (
    <PageLayout title={meta.title ? t(meta.title) : t('common.comingSoon')}>
      <Card withBorder p="xl">
        <Stack align="center" gap="xs">
          <IconTools size={40} stroke={1.5} color="var(--mantine-color-dimmed)" />
          <Text c="dimmed">{t('common.comingSoon')}</Text>
        </Stack>
      </Card>
    </PageLayout>
  );
}
