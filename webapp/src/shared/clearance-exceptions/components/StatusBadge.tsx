import { CodeBadge, type BadgeSize } from '@/components/StatusBadge';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { STATUS_COLORS } from '@/shared/clearance-exceptions/model/statuses';
import type { ExceptionStatus } from '@/shared/clearance-exceptions/model/types';

/** An exception status as a coloured badge with its label (spec 4 codes). */
export function ExceptionStatusBadge({
  status,
  size = 'sm',
}: {
  status: number | null | undefined;
  size?: BadgeSize;
}) {
  const { t } = useExcT();
  if (status === null || status === undefined) return null;
  return (
    <CodeBadge
      color={STATUS_COLORS[status as ExceptionStatus] ?? 'gray'}
      size={size}
      dataStatus={status}
      label={t(`status.${status}`, { defaultValue: String(status) })}
    />
  );
}
