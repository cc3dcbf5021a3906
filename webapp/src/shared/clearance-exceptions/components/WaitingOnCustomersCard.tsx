// The staff welcome page's exception panel (issue 12 "SLA"): the exceptions that have waited
// longest on the customer (statuses 2 and 3, oldest first), each with its age and the
// overdue flag, linking to its detail; and how many wait on us for review (status 4).
import { Anchor, Badge, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useExceptions } from '@/shared/clearance-exceptions/api/getExceptions';
import { exceptionDetailPath, exceptionListPath } from '@/shared/clearance-exceptions/model/paths';
import { longestWaiting } from '@/shared/clearance-exceptions/model/age';
import { ExceptionStatusBadge } from './StatusBadge';
import { WaitingCell } from './WaitingCell';

const SHOWN = 5;

const oldest = (status: number) => ({
  status,
  pageNo: 1,
  pageSize: SHOWN,
  sort: 'statusSince,asc',
});

export function WaitingOnCustomersCard() {
  const { t } = useExcT();
  const notified = useExceptions(oldest(2));
  const confirming = useExceptions(oldest(3));
  const review = useExceptions({ status: 4, pageNo: 1, pageSize: 1 });
  const loading = notified.isLoading || confirming.isLoading;
  const rows = longestWaiting(notified.data?.records ?? [], confirming.data?.records ?? [], SHOWN);
  const overdue = rows.filter((r) => r.overdue).length;

  return (
    <Card withBorder padding="md" component="section" aria-label={t('welcome.title')}>
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Title order={2} size="h5">
            {t('welcome.title')}
          </Title>
          {overdue > 0 && (
            <Badge color="red" leftSection={<IconAlertTriangle size={12} />}>
              {t('welcome.overdue', { count: overdue })}
            </Badge>
          )}
        </Group>
        <Anchor component={Link} to={`${exceptionListPath('staff', 'export')}?status=4`} size="sm">
          {t('welcome.awaitingReview', { count: review.data?.total ?? 0 })}
        </Anchor>
      </Group>
      {loading ? (
        <Skeleton h={80} />
      ) : rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('welcome.none')}
        </Text>
      ) : (
        <Stack gap={6}>
          {rows.map((r) => (
            <Group key={r.id} justify="space-between" wrap="nowrap">
              <Group gap="xs" wrap="nowrap">
                <Anchor component={Link} to={exceptionDetailPath('staff', r.id)} size="sm" fw={500}>
                  {r.trackingNumber ?? r.id}
                </Anchor>
                <ExceptionStatusBadge status={r.status} size="xs" />
                <Text size="xs" c="dimmed" truncate maw={220}>
                  {r.username}
                </Text>
              </Group>
              <WaitingCell
                status={r.status}
                waitingOn={r.waitingOn}
                statusSince={r.statusSince}
                overdue={r.overdue}
                ageMinutes={r.ageMinutes}
              />
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
