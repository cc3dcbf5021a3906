// A status code as a coloured badge with its label (declarations, exceptions).
import { Badge } from '@mantine/core';

export type BadgeSize = 'xs' | 'sm' | 'md' | 'lg';

export function CodeBadge({
  color,
  label,
  size = 'sm',
  dataStatus,
}: {
  color: string;
  label: string;
  size?: BadgeSize;
  /** Marks the badge with `data-status` (the exception lists' tests and styles read it). */
  dataStatus?: number;
}) {
  return (
    <Badge
      color={color}
      variant="light"
      size={size}
      data-status={dataStatus}
      style={{ textTransform: 'none', flexShrink: 0, overflow: 'visible' }}
    >
      {label}
    </Badge>
  );
}
