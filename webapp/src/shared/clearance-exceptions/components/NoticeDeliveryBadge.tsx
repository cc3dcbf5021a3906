import { Alert, Badge, List, Text, Tooltip } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import type { DeliveryProblem, NoticeDelivery } from '@/shared/clearance-exceptions/model/types';

/** One problem of a notice in words: channel, masked recipient, why. */
function useProblemText() {
  const { t } = useExcT();
  return (p: DeliveryProblem) =>
    p.status === 'no_recipient'
      ? t('delivery.notice.no_recipient')
      : t('delivery.notice.problem', {
          channel: t(`delivery.channel.${p.channel}`, { defaultValue: p.channel }),
          recipient: p.recipient,
          why:
            p.status === 'failed' && p.error
              ? p.error
              : t(`delivery.status.${p.status}`, { defaultValue: p.status }),
        });
}

/**
 * Beside the status: "Not delivered" (red, with why on hover) when the last notice reached
 * no one, "Sending…" while it is on its way; nothing once delivered.
 */
export function NoticeDeliveryBadge({ delivery }: { delivery?: NoticeDelivery | null }) {
  const { t } = useExcT();
  const problemText = useProblemText();
  if (!delivery) return null;
  if (delivery.state === 'pending') {
    return (
      <Badge color="gray" variant="light" size="sm" data-delivery="pending">
        {t('delivery.notice.pending')}
      </Badge>
    );
  }
  if (delivery.state !== 'not_delivered') return null;
  const badge = (
    <Badge color="red" variant="filled" size="sm" data-delivery="not_delivered">
      {t('delivery.notice.not_delivered')}
    </Badge>
  );
  if (delivery.problems.length === 0) return badge;
  return (
    <Tooltip multiline w={320} label={delivery.problems.map(problemText).join('\n')}>
      {badge}
    </Tooltip>
  );
}

/** Staff's warning on the detail when the last notice reached no one: why, per channel. */
export function NoticeNotDelivered({ delivery }: { delivery?: NoticeDelivery | null }) {
  const { t } = useExcT();
  const problemText = useProblemText();
  if (delivery?.state !== 'not_delivered') return null;
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={t('delivery.notice.title')}
      role="alert"
      data-testid="notice-not-delivered"
    >
      <Text size="sm">{t('delivery.notice.body')}</Text>
      <List size="sm" mt="xs">
        {delivery.problems.map((p) => (
          <List.Item key={`${p.channel}:${p.recipient}:${p.status}`}>{problemText(p)}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
