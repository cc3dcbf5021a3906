import { Badge, Card, Center, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { apiBase, appVersion, buildMode } from '@/config';
import { useHealth } from '@/shared/system/api/health';

/** /environment: build version, build mode and what the API says about itself. */
export default function EnvironmentPage() {
  const { t } = useTranslation();
  const health = useHealth();
  const rows: [string, React.ReactNode][] = [
    [t('environment.version'), appVersion],
    [t('environment.buildMode'), buildMode],
    [t('environment.apiBase'), apiBase || t('environment.sameOrigin')],
    [
      t('environment.apiMode'),
      health.isLoading ? t('common.loading') : (health.data?.mode ?? t('environment.unknown')),
    ],
    [
      t('environment.apiVersion'),
      health.data ? `${health.data.version ?? '-'} (${health.data.commit ?? '-'})` : '-',
    ],
    [
      t('environment.apiStatus'),
      health.isError ? (
        <Badge color="red">{t('environment.unreachable')}</Badge>
      ) : (
        <Badge color={health.data?.status === 'ok' ? 'teal' : 'gray'}>
          {health.data?.status ?? '-'}
        </Badge>
      ),
    ],
  ];
  return (
    <Center mih="100vh" p="md">
      <Card withBorder shadow="sm" w="100%" maw={560}>
        <Stack>
          <Group justify="space-between">
            <Title order={1} size="h3">
              {t('route.environment')}
            </Title>
            <Badge size="lg">{appVersion}</Badge>
          </Group>
          <Table>
            <Table.Tbody>
              {rows.map(([label, value]) => (
                <Table.Tr key={label}>
                  <Table.Th w={180}>{label}</Table.Th>
                  <Table.Td>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Text size="xs" c="dimmed">
            {t('app.title')}
          </Text>
        </Stack>
      </Card>
    </Center>
  );
}
