// The newest customs receipt beside a declaration's status ("C · inspection"), and the
// marker of a status set by hand while the channel is on.
import { Badge, Tooltip } from '@mantine/core';
import { IconHandStop } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/dates';
import { receiptLabel } from '../model/receipts';

const COLORS: Record<string, string> = {
  C: 'orange',
  H: 'orange',
  Sp1: 'orange',
  P: 'teal',
  R: 'teal',
  E: 'red',
  Z: 'red',
  Y: 'red',
};

export function ReceiptBadge({
  code,
  at,
  size = 'sm',
}: {
  code: string | null | undefined;
  at?: string | null;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation();
  if (!code) return null;
  const label = receiptLabel(t, code);
  const title = `${t('customs.latestReceipt')}: ${code} · ${label}${at ? ` (${formatDateTime(at)})` : ''}`;
  return (
    <Tooltip label={title}>
      <Badge
        variant="light"
        color={COLORS[code] ?? 'blue'}
        size={size}
        style={{ textTransform: 'none', flexShrink: 0 }}
        data-receipt={code}
        aria-label={title}
      >
        {code} · {label}
      </Badge>
    </Tooltip>
  );
}

export function ByHandMarker({ size = 'sm' }: { size?: 'xs' | 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation();
  return (
    <Tooltip label={t('customs.byHandHint')} multiline w={240}>
      <Badge
        variant="outline"
        color="grape"
        size={size}
        leftSection={<IconHandStop size={11} />}
        style={{ textTransform: 'none', flexShrink: 0 }}
        data-by-hand
        aria-label={t('customs.byHandHint')}
      >
        {t('customs.byHand')}
      </Badge>
    </Tooltip>
  );
}
