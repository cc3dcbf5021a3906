// Each notice delivery: channel, recipient, result (sent, failed with the provider's
// reason, channel not configured), attempts and when.
import { Badge, Table, Text } from '@mantine/core';
import { formatDateTime } from '@/lib/dates';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import type { DeliveryResult, ExceptionDelivery } from '@/shared/clearance-exceptions/model/types';

const COLORS: Record<DeliveryResult, string> = {
  pending: 'gray',
  sent: 'teal',
  failed: 'red',
  not_configured: 'orange',
};

export function DeliveryLog({ deliveries }: { deliveries: ExceptionDelivery[] }) {
  const { t } = useExcT();
  if (deliveries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('delivery.none')}
      </Text>
    );
  return (
    <Table striped withTableBorder aria-label={t('detail.deliveries')}>
      <Table.Tbody>
        {deliveries.map((d) => (
          <Table.Tr key={d.id}>
            <Table.Td>{t(`delivery.channel.${d.channel}`, { defaultValue: d.channel })}</Table.Td>
            <Table.Td>
              <Text size="sm" style={{ wordBreak: 'break-all' }}>
                {d.recipient}
              </Text>
            </Table.Td>
            <Table.Td>
              <Badge color={COLORS[d.status] ?? 'gray'} variant="light" size="sm">
                {t(`delivery.status.${d.status}`, { defaultValue: d.status })}
              </Badge>
              {d.lastError && (
                <Text size="xs" c="red">
                  {d.lastError}
                </Text>
              )}
            </Table.Td>
            <Table.Td>
              <Text size="xs" c="dimmed">
                {t('delivery.attempts', { count: d.attempts })}
                <br />
                {formatDateTime(d.updatedAt)}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
