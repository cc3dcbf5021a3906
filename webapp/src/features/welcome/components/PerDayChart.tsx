import '@mantine/charts/styles.css';
import { BarChart } from '@mantine/charts';
import { Center, Text } from '@mantine/core';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';

/** Declarations per day (Mantine charts on recharts; loaded lazily). */
export default function PerDayChart({ data }: { data: { date: string; count: number }[] }) {
  const { t } = useTranslation();
  if (data.length === 0) {
    return (
      <Center h={260}>
        <Text c="dimmed">{t('table.empty')}</Text>
      </Center>
    );
  }
  const rows = data.map((d) => ({
    day: dayjs(
      d.date.length === 8
        ? `${d.date.slice(0, 4)}-${d.date.slice(4, 6)}-${d.date.slice(6)}`
        : d.date,
    ).format('MM-DD'),
    count: d.count,
  }));
  return (
    <BarChart
      h={260}
      data={rows}
      dataKey="day"
      series={[{ name: 'count', label: t('welcome.declarations'), color: 'blue.6' }]}
      tickLine="y"
      withTooltip
    />
  );
}
