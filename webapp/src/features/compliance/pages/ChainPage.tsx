// /compliance/chain: how far the hash chain reaches, its last signed seal (signature checked
// by the server against the published key), a verification run in the background with its
// progress, and the public key to verify with.
import type { ReactNode } from 'react';
import { Alert, Badge, Button, Card, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageLayout } from '@/components/PageLayout';
import { formatTime } from '@/lib/dates';
import { useChainStatus, usePublicKey } from '@/features/compliance/api/audit';
import { VerificationCard } from '@/features/compliance/components/VerificationCard';

export default function ChainPage() {
  const { t } = useTranslation();
  const chain = useChainStatus();
  const key = usePublicKey();
  const none = t('compliance.common.none');
  const c = chain.data;
  // Positions may have gaps, so what is behind is named by position, not counted.
  const behind = c != null && c.headPosition !== null && c.headPosition > (c.chainedTo ?? 0);
  const row = (label: string, value: ReactNode, testId?: string) => (
    <Table.Tr>
      <Table.Th w={260}>{label}</Table.Th>
      <Table.Td data-testid={testId}>{value}</Table.Td>
    </Table.Tr>
  );
  return (
    <PageLayout
      title={t('compliance.chain.title')}
      actions={
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={chain.isFetching}
          onClick={() => void chain.refetch()}
        >
          {t('compliance.chain.refresh')}
        </Button>
      }
    >
      {chain.isError && (
        <Alert color="red" role="alert">
          {chain.error.message}
        </Alert>
      )}
      {c && (
        <Card withBorder>
          <Stack gap="xs">
            <Group>
              {behind ? (
                <Badge color="yellow">
                  {t('compliance.chain.behind', { position: c.chainedTo ?? 0 })}
                </Badge>
              ) : (
                <Badge color="green">{t('compliance.chain.upToDate')}</Badge>
              )}
            </Group>
            <Table>
              <Table.Tbody>
                {row(t('compliance.chain.chainedTo'), c.chainedTo ?? none, 'chained-to')}
                {row(t('compliance.chain.head'), c.headPosition ?? none, 'head-position')}
                {row(t('compliance.chain.chained'), c.chained)}
                {row(t('compliance.chain.seals'), c.seals)}
              </Table.Tbody>
            </Table>
          </Stack>
        </Card>
      )}
      {c && (
        <Card withBorder>
          <Stack gap="xs">
            <Title order={2} size="h4">
              {t('compliance.chain.lastSeal')}
            </Title>
            {c.lastSeal ? (
              <Table>
                <Table.Tbody>
                  {row(t('compliance.chain.sealPosition'), c.lastSeal.position, 'seal-position')}
                  {row(t('compliance.chain.sealedAt'), formatTime(c.lastSeal.sealedAt))}
                  {row(t('compliance.chain.sealHash'), <Code>{c.lastSeal.hash}</Code>)}
                  {row(
                    t('compliance.chain.signature'),
                    <Stack gap={4} align="flex-start">
                      {c.lastSeal.signatureValid ? (
                        <Badge color="green">{t('compliance.chain.signatureValid')}</Badge>
                      ) : (
                        <Badge color="red">{t('compliance.chain.signatureInvalid')}</Badge>
                      )}
                      <Code style={{ wordBreak: 'break-all' }}>{c.lastSeal.signature}</Code>
                    </Stack>,
                  )}
                </Table.Tbody>
              </Table>
            ) : (
              <Text c="dimmed">{t('compliance.chain.noSeal')}</Text>
            )}
          </Stack>
        </Card>
      )}
      <VerificationCard />
      <Card withBorder>
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('compliance.chain.publicKey')}
          </Title>
          {key.isError && <Alert color="red">{key.error.message}</Alert>}
          {key.data && (
            <Text size="sm">
              {key.data.algorithm}: <Code data-testid="public-key">{key.data.publicKey}</Code>
            </Text>
          )}
          <Text size="sm" c="dimmed">
            {t('compliance.chain.verifyHint')}
          </Text>
        </Stack>
      </Card>
    </PageLayout>
  );
}
