// Says that what the page shows is catching up with the user's own last write: some query's
// answer came back marked `X-Read-Behind` and TanStack Query is asking again (with back-off,
// see lib/queryClient.ts) until the answer holds that write. Gone once every answer is current.
import { Alert } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useIsFetching } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ReadBehindError } from '@/lib/request';

export function ReadBehindNotice() {
  const { t } = useTranslation();
  const catchingUp = useIsFetching({
    predicate: (query) => query.state.fetchFailureReason instanceof ReadBehindError,
  });
  if (catchingUp === 0) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconRefresh size={18} />}
      role="status"
      aria-live="polite"
      mb="sm"
      data-testid="read-behind-notice"
    >
      {t('request.catchingUp')}
    </Alert>
  );
}
