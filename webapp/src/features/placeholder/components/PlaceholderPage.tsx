import { Card, Stack, Text, Title } from '@mantine/core';
import { IconTools } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRouteMeta } from '@/app/routes/useRouteMeta';

/** Stands in for a page whose issue has not landed yet; shows the route's title. */
export default function PlaceholderPage() {
  const { t } = useTranslation();
  const meta = useRouteMeta();
  return (
    <Card withBorder p="xl">
      <Stack align="center" gap="xs">
        <IconTools size={40} stroke={1.5} color="var(--mantine-color-dimmed)" />
        <Title order={2} size="h4">
          {meta.title ? t(meta.title) : t('common.comingSoon')}
        </Title>
        <Text c="dimmed">{t('common.comingSoon')}</Text>
      </Stack>
    </Card>
  );
}
