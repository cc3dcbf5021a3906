import { Badge } from '@mantine/core';
import { useExcT } from '../i18n';
import { STATUS_COLORS } from '../model/statuses';
import type { ExceptionStatus } from '../model/types';

/** An exception status as a coloured badge with its label (spec 4 codes). */
export function ExceptionStatusBadge({
  status,
  size = 'sm',
}: {
  status: number | null | undefined;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useExcT();
  if (status === null || status === undefined) return null;
  return (
    <Badge
      color={STATUS_COLORS[status as ExceptionStatus] ?? 'gray'}
      variant="light"
      size={size}
      data-status={status}
      style={{ textTransform: 'none', flexShrink: 0, overflow: 'visible' }}
    >
      {t(`status.${status}`, { defaultValue: String(status) })}
    </Badge>
  );
}
