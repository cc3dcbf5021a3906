import { Badge, Group, Text } from '@mantine/core';
import { IconClockExclamation } from '@tabler/icons-react';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { ageText } from '@/shared/clearance-exceptions/model/age';
import { isOpen } from '@/shared/clearance-exceptions/model/statuses';
import type { WaitingOn } from '@/shared/clearance-exceptions/model/types';

/** How long an open exception has waited and on whom; the overdue flag in red. */
export function WaitingCell({
  status,
  waitingOn,
  statusSince,
  overdue,
  ageMinutes,
  now,
}: {
  status: number;
  waitingOn: WaitingOn | null;
  statusSince: string | null;
  overdue: boolean;
  /** The server's minutes in this status (preferred over the client's clock). */
  ageMinutes?: number | null;
  now?: Date;
}) {
  const { t } = useExcT();
  if (!isOpen(status)) return <Text size="sm">{t('common.none')}</Text>;
  const age = ageText(statusSince, t, now, ageMinutes);
  return (
    <Group gap={4}>
      <Text size="sm" c={overdue ? 'red' : undefined}>
        {age || t('common.none')}
        {waitingOn ? ` · ${t(`list.waitingOn.${waitingOn}`)}` : ''}
      </Text>
      {overdue && (
        <Badge color="red" size="xs" leftSection={<IconClockExclamation size={11} />}>
          {t('list.overdue')}
        </Badge>
      )}
    </Group>
  );
}
