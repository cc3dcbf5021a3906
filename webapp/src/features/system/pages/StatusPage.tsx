import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Shared frame of the 401 / 403 / 404 pages. */
export function StatusPage({ code, title, text }: { code: string; title: string; text: string }) {
  const { t } = useTranslation();
  return (
    <Center mih="70vh" p="xl">
      <Stack align="center" gap="sm" maw={480}>
        <Text fz={72} fw={800} c="dimmed" lh={1} aria-hidden>
          {code}
        </Text>
        <Title order={1} size="h3" ta="center">
          {title}
        </Title>
        <Text c="dimmed" ta="center">
          {text}
        </Text>
        <Group mt="md">
          <Button component={Link} to="/">
            {t('status.home')}
          </Button>
          <Button variant="default" onClick={() => window.history.back()}>
            {t('status.back')}
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
