// "Raise clearance exception" on a declaration's page: shown while the declaration may take
// one (1 unprocessed, 2 reviewed); opens the create form with the declaration chosen.
import { Button } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { exceptionCreatePath, type Area } from '@/shared/clearance-exceptions/model/paths';
import { ELIGIBLE_DECLARATION_STATUSES } from '@/shared/clearance-exceptions/model/statuses';

export function RaiseExceptionButton({
  area,
  declarationId,
  status,
}: {
  area: Area;
  declarationId: string;
  status: number;
}) {
  const { t } = useExcT();
  if (!ELIGIBLE_DECLARATION_STATUSES.includes(status)) return null;
  return (
    <Button
      variant="default"
      color="orange"
      leftSection={<IconAlertTriangle size={16} />}
      component={Link}
      to={exceptionCreatePath(area, declarationId)}
    >
      {t('form.raise')}
    </Button>
  );
}
