// Welcome page body: counts by status per type code, each linking to the filtered list,
// and a chart of declarations per day (lazy: recharts stays out of the initial bundle).
import { lazy, Suspense, useState, type ReactNode } from 'react';
import {
  Anchor,
  Badge,
  Card,
  ColorSwatch,
  Group,
  SegmentedControl,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  DECLARATION_STATUSES,
  DECLARATION_TYPES,
  STATUS_COLORS,
  declarationListPath,
  type Area,
} from '@/lib/declarations';
import { PageLayout } from '@/components/PageLayout';
import { shanghaiYmd } from '@/lib/dates';
import { useSessionStore } from '@/lib/session';
import { useDeclarationCounts } from '../api/declarationCounts';

const PerDayChart = lazy(() => import('./PerDayChart'));

const RANGES = [7, 30, 90] as const;

/** `lead`: shown first, above the counts (what needs the person's action). */
export function WelcomeDashboard({ area, lead }: { area: Area; lead?: ReactNode }) {
  const { t, i18n } = useTranslation();
  const userinfo = useSessionStore((s) => s.userinfo);
  const [days, setDays] = useState<string>('30');
  // The server counts Shanghai days; the browser's own "today" may be a day behind.
  const now = new Date();
  const query = { fromDate: shanghaiYmd(now, Number(days) - 1), toDate: shanghaiYmd(now) };
  const counts = useDeclarationCounts(query);
  const number = new Intl.NumberFormat(i18n.language?.startsWith('en') ? 'en' : 'zh-CN');

  const countOf = (type: string, status: number) =>
    counts.data?.byStatus.find((c) => c.declarationType === type && c.status === status)?.count ??
    0;

  return (
    <PageLayout
      title={t('welcome.greeting', { name: userinfo?.displayName || userinfo?.userName || '' })}
      subtitle={
        <Text c="dimmed" size="sm">
          {t('welcome.subtitle')}
        </Text>
      }
      actions={
        <SegmentedControl
          value={days}
          onChange={setDays}
          aria-label={t('welcome.range')}
          data={RANGES.map((d) => ({
            value: String(d),
            label: t('welcome.lastDays', { count: d }),
          }))}
        />
      }
    >
      {lead}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {DECLARATION_TYPES.map((type) => {
          const total = DECLARATION_STATUSES.filter((s) => s !== 5).reduce<number>(
            (n, s) => n + countOf(type, s),
            0,
          );
          return (
            <Card key={type} withBorder padding="md">
              <Group justify="space-between" mb="xs">
                <Anchor component={Link} to={declarationListPath(area, type)} fw={600}>
                  {t(`declarationType.${type}`)}
                </Anchor>
                <Badge variant="light">{number.format(total)}</Badge>
              </Group>
              {counts.isLoading ? (
                <Skeleton h={96} />
              ) : (
                <Stack gap={4}>
                  {DECLARATION_STATUSES.filter((s) => s !== 5).map((status) => (
                    <Group key={status} justify="space-between" gap="xs" wrap="nowrap">
                      <Group gap={8} wrap="nowrap" miw={0}>
                        <ColorSwatch
                          color={`var(--mantine-color-${STATUS_COLORS[status]}-6)`}
                          size={10}
                          withShadow={false}
                        />
                        <Text size="sm" truncate title={t(`declarationStatus.${status}`)}>
                          {t(`declarationStatus.${status}`)}
                        </Text>
                      </Group>
                      <Anchor
                        component={Link}
                        to={declarationListPath(area, type, { status })}
                        size="sm"
                        aria-label={`${t(`declarationType.${type}`)} ${t(`declarationStatus.${status}`)}`}
                      >
                        {number.format(countOf(type, status))}
                      </Anchor>
                    </Group>
                  ))}
                </Stack>
              )}
            </Card>
          );
        })}
      </SimpleGrid>

      <Card withBorder padding="md">
        <Text fw={600} mb="sm">
          {t('welcome.perDay')}
        </Text>
        <Suspense fallback={<Skeleton h={260} />}>
          <PerDayChart data={counts.data?.perDay ?? []} />
        </Suspense>
      </Card>
    </PageLayout>
  );
}
