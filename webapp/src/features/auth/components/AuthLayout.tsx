import type { ReactNode } from 'react';
import { Box, Center, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ColorSchemeToggle } from '@/components/ColorSchemeToggle';
import { LanguageSwitch } from '@/components/LanguageSwitch';

/** Frame of the sign-in pages: product title, a card, language and scheme switches. */
export function AuthLayout({ subtitle, children }: { subtitle: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box
      mih="100vh"
      style={{
        background:
          'linear-gradient(135deg, var(--mantine-color-blue-light) 0%, var(--mantine-color-body) 60%)',
      }}
    >
      <Group justify="flex-end" p="md" gap="xs">
        <LanguageSwitch />
        <ColorSchemeToggle />
      </Group>
      <Center px="md" pb="xl">
        <Stack w="100%" maw={420} gap="lg">
          <Stack gap={4} align="center">
            <Title order={1} size="h2" ta="center">
              {t('app.title')}
            </Title>
            <Text c="dimmed">{subtitle}</Text>
          </Stack>
          <Paper withBorder shadow="md" p="xl" radius="md">
            {children}
          </Paper>
        </Stack>
      </Center>
    </Box>
  );
}
