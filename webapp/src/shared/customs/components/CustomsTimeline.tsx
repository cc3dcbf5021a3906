// A declaration's customs exchange, oldest first: each message sent (CopNo, file, when,
// download for staff who may), each refused or re-sent one, and each receipt (code, its
// meaning in Chinese and English, customs' notice time, note, entry and unified numbers,
// taxes, documents asked for).
import type { ReactNode } from 'react';
import { Anchor, Badge, Group, List, Stack, Text } from '@mantine/core';
import {
  IconAlertTriangle,
  IconDownload,
  IconMailForward,
  IconRefresh,
  IconReceipt,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HistoryLine, HistoryTimeline } from '@/components/HistoryTimeline';
import { formatDateTime } from '@/lib/dates';
import type { CustomsEntry } from '../model/types';
import { ReceiptBadge } from './ReceiptBadge';

const NoStatus = () => null;

export interface CustomsTimelineProps {
  entries: CustomsEntry[];
  /** Offer the download of each message sent (staff with the permission). */
  onDownload?: (copNo: string) => void;
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <HistoryLine>
      <Text span size="xs" c="dimmed">
        {label}:{' '}
      </Text>
      {children}
    </HistoryLine>
  );
}

export function CustomsTimeline({ entries, onDownload }: CustomsTimelineProps) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  return (
    <HistoryTimeline
      empty={t('customs.timeline.empty')}
      StatusBadge={NoStatus}
      entries={entries.map((e) => {
        const when = formatDateTime(e.at);
        const meta = e.actor ? `${when} · ${e.actor}` : when;
        if (e.kind === 'receipt') {
          const meaning = [e.meaningZh, e.meaningEn].filter(Boolean);
          return {
            key: `${e.version}`,
            icon: IconReceipt,
            action: t('customs.timeline.receipt'),
            from: null,
            to: null,
            badge: <ReceiptBadge code={e.code} size="xs" />,
            meta: `${e.noticeDate ? `${t('customs.timeline.noticeDate')} ${formatDateTime(e.noticeDate)}` : when} · ${e.copNo}`,
            children: (
              <Stack gap={0} data-receipt-entry={e.code ?? ''}>
                {meaning.length > 0 && (
                  <Text size="sm" mt={4}>
                    {e.code} {zh ? meaning.join(' / ') : [...meaning].reverse().join(' / ')}
                  </Text>
                )}
                {e.effect === 'late' && (
                  <Text size="xs" c="orange">
                    {t('customs.timeline.late')}
                  </Text>
                )}
                {e.note && <Line label={t('customs.timeline.note')}>{e.note}</Line>}
                {e.entryId && (
                  <Line label={t('customs.entryId')}>
                    <Text span ff="monospace" size="sm">
                      {e.entryId}
                    </Text>
                  </Line>
                )}
                {e.cusCiqNo && (
                  <Line label={t('customs.cusCiqNo')}>
                    <Text span ff="monospace" size="sm">
                      {e.cusCiqNo}
                    </Text>
                  </Line>
                )}
                {e.taxes.length > 0 && (
                  <Line label={t('customs.timeline.taxes')}>
                    {e.taxes
                      .map(
                        (x) =>
                          `${t(`customs.tax.${x.type}`, { defaultValue: x.type })} CNY ${x.amount}`,
                      )
                      .join(' · ')}
                  </Line>
                )}
                {e.docs.length > 0 && (
                  <Line label={t('customs.timeline.docs')}>{e.docs.join(', ')}</Line>
                )}
                <Text size="xs" c="dimmed" mt={2}>
                  {t('customs.timeline.recordedAt')} {meta}
                  {e.source ? ` · ${e.source}` : ''}
                </Text>
              </Stack>
            ),
          };
        }
        if (e.kind === 'refused')
          return {
            key: `${e.version}`,
            icon: IconAlertTriangle,
            action: t('customs.timeline.refused'),
            from: null,
            to: null,
            badge: (
              <Badge size="xs" color="red" variant="light">
                {e.copNo}
              </Badge>
            ),
            meta,
            children: (
              <List size="xs" withPadding mt={4}>
                {e.problems.map((p) => (
                  <List.Item key={p}>{p}</List.Item>
                ))}
              </List>
            ),
          };
        if (e.kind === 'resend')
          return {
            key: `${e.version}`,
            icon: IconRefresh,
            action: t('customs.timeline.resend'),
            from: null,
            to: null,
            badge: (
              <Badge size="xs" color="gray" variant="outline" style={{ textTransform: 'none' }}>
                {e.copNo}
              </Badge>
            ),
            meta,
            children: (
              <>
                {e.previous && (
                  <Text size="xs" c="dimmed">
                    {t('customs.timeline.previous', { copNo: e.previous })}
                  </Text>
                )}
                {e.reason && <Line label={t('customs.timeline.reason')}>{e.reason}</Line>}
              </>
            ),
          };
        return {
          key: `${e.version}`,
          icon: IconMailForward,
          action: t('customs.timeline.sent'),
          from: null,
          to: null,
          badge: (
            <Badge size="xs" color="blue" variant="outline" style={{ textTransform: 'none' }}>
              {e.copNo}
            </Badge>
          ),
          meta,
          children: e.fileName && (
            <Group gap="xs" mt={4} wrap="wrap">
              <Text size="xs" c="dimmed">
                {t('customs.timeline.file')}:
              </Text>
              <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
                {e.fileName}
              </Text>
              {onDownload && (
                <Anchor
                  component="button"
                  type="button"
                  size="xs"
                  onClick={() => onDownload(e.copNo)}
                  aria-label={`${t('customs.timeline.download')} ${e.copNo}`}
                >
                  <Group gap={2} wrap="nowrap">
                    <IconDownload size={12} />
                    {t('customs.timeline.download')}
                  </Group>
                </Anchor>
              )}
            </Group>
          ),
        };
      })}
    />
  );
}
