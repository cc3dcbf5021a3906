// The staff welcome page's customs panel: what customs holds (inspection, suspended,
// documents requested, no receipt long after sending), counted by age, the oldest listed
// first, each linking to its declaration.
import { Anchor, Badge, Card, Group, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { declarationDetailPath } from '@/lib/declarations';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import { useCustomsHolds } from '../api/getCustomsHolds';
import { HOLD_REASONS, ageParts } from '../model/receipts';
import type { CustomsHold } from '../model/types';

/** No receipt this long after sending counts as held. */
export const SILENT_HOURS = 24;

const REASON_COLORS: Record<string, string> = {
  C: 'orange',
  H: 'yellow',
  Sp1: 'grape',
  silent: 'gray',
};

export function CustomsHoldsCard({ silentHours = SILENT_HOURS }: { silentHours?: number }) {
  const { t } = useTranslation();
  const holds = useCustomsHolds(silentHours);
  const data = holds.data;
  const age = (h: CustomsHold) => {
    const { unit, count } = ageParts(h.ageSecs);
    return unit === 'days'
      ? t('customs.holds.ageDays', { count })
      : t('customs.holds.ageHours', { count });
  };
  const counts = HOLD_REASONS.map(
    (reason) =>
      data?.counts.find((c) => c.reason === reason) ?? {
        reason,
        underOneDay: 0,
        oneToThreeDays: 0,
        overThreeDays: 0,
      },
  );
  return (
    <Card withBorder padding="md" component="section" aria-label={t('customs.holds.title')}>
      <Group justify="space-between" mb={4} wrap="wrap">
        <Title order={2} size="h5">
          {t('customs.holds.title')}
        </Title>
        {data && data.total > 0 && <Badge color="orange">{data.total}</Badge>}
      </Group>
      <Text size="xs" c="dimmed" mb="sm">
        {t('customs.holds.intro', { hours: silentHours })}
      </Text>
      {holds.isLoading ? (
        <Skeleton h={80} />
      ) : holds.isError ? (
        <Text size="sm" c="red" role="alert">
          {t('customs.holds.loadFailed', { message: (holds.error as Error).message })}
        </Text>
      ) : !data || data.total === 0 ? (
        <Text size="sm" c="dimmed">
          {t('customs.holds.empty')}
        </Text>
      ) : (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={300}>
            <Table withTableBorder verticalSpacing={4} aria-label={t('customs.holds.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th />
                  <Table.Th ta="right">{t('customs.holds.age.under')}</Table.Th>
                  <Table.Th ta="right">{t('customs.holds.age.mid')}</Table.Th>
                  <Table.Th ta="right">{t('customs.holds.age.over')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {counts.map((c) => (
                  <Table.Tr key={c.reason} data-hold-reason={c.reason}>
                    <Table.Td>
                      <Badge
                        size="sm"
                        variant="light"
                        color={REASON_COLORS[c.reason]}
                        style={{ textTransform: 'none' }}
                      >
                        {t(`customs.holds.reason.${c.reason}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{c.underOneDay}</Table.Td>
                    <Table.Td ta="right">{c.oneToThreeDays}</Table.Td>
                    <Table.Td ta="right" fw={c.overThreeDays > 0 ? 700 : undefined}>
                      {c.overThreeDays}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Stack gap={6}>
            {data.records.map((h) => (
              <Group key={h.id} justify="space-between" wrap="nowrap" gap="xs">
                <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                  <Anchor
                    component={Link}
                    to={declarationDetailPath('staff', h.declarationType, h.id)}
                    size="sm"
                    fw={500}
                  >
                    {h.trackingNumber ?? h.id}
                  </Anchor>
                  <Badge
                    size="xs"
                    variant="light"
                    color={REASON_COLORS[h.reason]}
                    style={{ textTransform: 'none', flexShrink: 0 }}
                  >
                    {t(`customs.holds.reason.${h.reason}`, { defaultValue: h.reason })}
                  </Badge>
                  <StatusBadge status={h.status} size="xs" />
                  <Text size="xs" c="dimmed" truncate maw={160}>
                    {h.username}
                  </Text>
                </Group>
                <Text
                  size="xs"
                  c={h.ageSecs > 3 * 86400 ? 'red' : 'dimmed'}
                  style={{ flexShrink: 0 }}
                >
                  {age(h)}
                </Text>
              </Group>
            ))}
            {data.total > data.records.length && (
              <Text size="xs" c="dimmed">
                {t('customs.holds.more', { count: data.total - data.records.length })}
              </Text>
            )}
          </Stack>
        </Stack>
      )}
    </Card>
  );
}
