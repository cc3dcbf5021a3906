import { useTranslation } from 'react-i18next';
import { CodeBadge, type BadgeSize } from '@/components/StatusBadge';
import { STATUS_COLORS } from '@/lib/declarations';

/** A declaration status as a coloured badge with its label (spec 4 codes). */
export function StatusBadge({
  status,
  size = 'sm',
}: {
  status: number | null | undefined;
  size?: BadgeSize;
}) {
  const { t } = useTranslation();
  if (status === null || status === undefined) return null;
  return (
    <CodeBadge
      color={STATUS_COLORS[status] ?? 'gray'}
      size={size}
      label={t(`declarationStatus.${status}`)}
    />
  );
}
