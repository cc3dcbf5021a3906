import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { STATUS_COLORS } from '@/lib/declarations';

/** A declaration status as a coloured badge with its label (spec 4 codes). */
export function StatusBadge({
  status,
  size = 'sm',
}: {
  status: number | null | undefined;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation();
  if (status === null || status === undefined) return null;
  return (
    <Badge
      color={STATUS_COLORS[status] ?? 'gray'}
      variant="light"
      size={size}
      style={{ textTransform: 'none', flexShrink: 0, overflow: 'visible' }}
    >
      {t(`declarationStatus.${status}`)}
    </Badge>
  );
}
