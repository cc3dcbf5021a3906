// A declaration's status with, beside it, the newest customs receipt ("Reviewed · C
// inspection") and the marker of a status set by hand while the channel is on.
import { Group } from '@mantine/core';
import { ByHandMarker, ReceiptBadge } from '@/shared/customs/components/ReceiptBadge';
import { StatusBadge } from './StatusBadge';

export interface StatusWithReceiptProps {
  status: number;
  customsReceipt?: string | null;
  customsReceiptAt?: string | null;
  movedByHand?: boolean;
  minWidth?: number;
}

export function StatusWithReceipt({
  status,
  customsReceipt,
  customsReceiptAt,
  movedByHand,
  minWidth,
}: StatusWithReceiptProps) {
  return (
    <Group gap={4} wrap="wrap" miw={minWidth}>
      <StatusBadge status={status} />
      <ReceiptBadge code={customsReceipt} at={customsReceiptAt} />
      {movedByHand && <ByHandMarker />}
    </Group>
  );
}
