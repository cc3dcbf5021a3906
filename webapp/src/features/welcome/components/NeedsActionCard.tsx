// The first thing on a home page: what waits on the person signed in. A customer sees the
// clearance exceptions waiting on them (notified, or awaiting their answer) and the
// declarations returned to them to correct; staff see how many exceptions await review,
// how many wait on customers past their time, and the declarations that wait on an operator
// (unprocessed, held for documents, returned by customs). Each links to where it is done.
import type { ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { declarationDetailPath, declarationFormPath, type Area } from '@/lib/declarations';
import { useDeclarations } from '@/shared/declarations/api/getDeclarations';
import { useExceptions } from '@/shared/clearance-exceptions/api/getExceptions';
import { ExceptionStatusBadge } from '@/shared/clearance-exceptions/components/StatusBadge';
import {
  directionOfShipment,
  exceptionDetailPath,
  exceptionListPath,
} from '@/shared/clearance-exceptions/model/paths';

const SHOWN = 5;

const oldestFirst = (status: number, pageSize = SHOWN) => ({
  status,
  pageNo: 1,
  pageSize,
  sort: 'statusSince,asc',
});

function Frame({ children, empty }: { children: ReactNode; empty: boolean }) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" component="section" aria-label={t('welcome.action.title')}>
      <Title order={2} size="h5" mb="sm">
        {t('welcome.action.title')}
      </Title>
      {empty ? (
        <Group gap="xs">
          <IconCircleCheck size={18} color="var(--mantine-color-teal-6)" />
          <Text size="sm" c="dimmed">
            {t('welcome.action.none')}
          </Text>
        </Group>
      ) : (
        children
      )}
    </Card>
  );
}

function CustomerActions() {
  const { t } = useTranslation();
  const notified = useExceptions(oldestFirst(2));
  const answering = useExceptions(oldestFirst(3));
  const returned = useDeclarations({ status: 11, pageNo: 1, pageSize: SHOWN });
  if (notified.isLoading || answering.isLoading || returned.isLoading) {
    return (
      <Frame empty={false}>
        <Skeleton h={60} />
      </Frame>
    );
  }
  const exceptions = [...(notified.data?.records ?? []), ...(answering.data?.records ?? [])];
  const declarations = returned.data?.records ?? [];
  const waiting = (notified.data?.total ?? 0) + (answering.data?.total ?? 0);
  return (
    <Frame empty={exceptions.length === 0 && declarations.length === 0}>
      <Stack gap="sm">
        {exceptions.length > 0 && (
          <div>
            <Text size="sm" fw={600} mb={4}>
              {t('welcome.action.exceptionsWaiting', { count: waiting })}
            </Text>
            <Stack gap={4}>
              {exceptions.map((e) => (
                <Group key={e.id} gap="xs" wrap="wrap">
                  <Anchor component={Link} to={exceptionDetailPath('customer', e.id)} fw={500}>
                    {e.trackingNumber ?? e.id}
                  </Anchor>
                  <ExceptionStatusBadge status={e.status} size="xs" />
                  {e.overdue && (
                    <Badge color="red" size="xs">
                      {t('welcome.action.overdue')}
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed" lineClamp={1} maw={360}>
                    {e.exceptionSummary}
                  </Text>
                </Group>
              ))}
            </Stack>
          </div>
        )}
        {declarations.length > 0 && (
          <div>
            <Text size="sm" fw={600} mb={4}>
              {t('welcome.action.returned', { count: returned.data?.total ?? 0 })}
            </Text>
            <Stack gap={4}>
              {declarations.map((d) => (
                <Group key={d.id} gap="xs" wrap="wrap">
                  <Anchor
                    component={Link}
                    to={declarationDetailPath('customer', d.declarationType, d.id)}
                    fw={500}
                  >
                    {d.trackingNumber ?? d.id}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {t(`declarationType.${d.declarationType}`)}
                  </Text>
                  <Anchor
                    component={Link}
                    to={declarationFormPath('customer', d.declarationType, d.id)}
                    size="xs"
                  >
                    {t('welcome.action.correct')}
                  </Anchor>
                </Group>
              ))}
            </Stack>
          </div>
        )}
      </Stack>
    </Frame>
  );
}

function Count({
  label,
  count,
  to,
  color,
}: {
  label: string;
  count: number | undefined;
  to: string;
  color: string;
}) {
  return (
    <Card withBorder padding="sm" component={Link} to={to} aria-label={`${label}: ${count ?? 0}`}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} c={count ? color : 'dimmed'}>
        {count ?? '–'}
      </Text>
    </Card>
  );
}

function StaffActions({ exceptions }: { exceptions: boolean }) {
  const { t } = useTranslation();
  const review = useExceptions({ status: 4, pageNo: 1, pageSize: 1 });
  const notified = useExceptions(oldestFirst(2, 50));
  const answering = useExceptions(oldestFirst(3, 50));
  const count = (status: number) => ({ status, pageNo: 1, pageSize: 1 });
  const unprocessed = useDeclarations(count(1));
  const held = useDeclarations(count(4));
  const returned = useDeclarations(count(10));
  const overdue = [...(notified.data?.records ?? []), ...(answering.data?.records ?? [])].filter(
    (e) => e.overdue,
  );
  const firstOverdue = overdue[0];
  const all = '/customs-clearance/all';
  return (
    <Frame empty={false}>
      <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
        {exceptions && (
          <Count
            label={t('welcome.action.awaitingReview')}
            count={review.data?.total}
            to={`${exceptionListPath('staff', 'export')}?status=4`}
            color="blue"
          />
        )}
        {exceptions && (
          <Count
            label={t('welcome.action.overdueExceptions')}
            count={notified.data && answering.data ? overdue.length : undefined}
            to={
              firstOverdue
                ? exceptionListPath('staff', directionOfShipment(firstOverdue.shipmentType))
                : exceptionListPath('staff', 'export')
            }
            color="red"
          />
        )}
        <Count
          label={t('welcome.action.unprocessed')}
          count={unprocessed.data?.total}
          to={`${all}?status=1`}
          color="blue"
        />
        <Count
          label={t('welcome.action.held')}
          count={held.data?.total}
          to={`${all}?status=4`}
          color="orange"
        />
        <Count
          label={t('welcome.action.returnedByCustoms')}
          count={returned.data?.total}
          to={`${all}?status=10`}
          color="orange"
        />
      </SimpleGrid>
    </Frame>
  );
}

/** `exceptions`: the staff member may see clearance exceptions. */
export function NeedsActionCard({
  area,
  exceptions = false,
}: {
  area: Area;
  exceptions?: boolean;
}) {
  return area === 'customer' ? <CustomerActions /> : <StaffActions exceptions={exceptions} />;
}
