// The archive's status badges: active/disabled, and Easy-clear bound or still locked.
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function CustomerStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={status === 'disabled' ? 'gray' : 'teal'} variant="light" miw="max-content">
      {t(`customers.status.${status}`, { defaultValue: status })}
    </Badge>
  );
}

export function BindingBadge({ isLocked }: { isLocked: boolean }) {
  const { t } = useTranslation();
  return (
    <Badge color={isLocked ? 'orange' : 'blue'} variant="outline" miw="max-content">
      {isLocked ? t('customers.binding.locked') : t('customers.binding.bound')}
    </Badge>
  );
}
