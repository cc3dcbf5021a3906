// The exception's history: who, when, status from -> to, reason or note, the file uploaded
// or the notice delivered, oldest first.
import { Badge, Text } from '@mantine/core';
import { HistoryLine, HistoryTimeline } from '@/components/HistoryTimeline';
import {
  IconBan,
  IconCircleCheck,
  IconArrowBackUp,
  IconEye,
  IconMail,
  IconPlus,
  IconPoint,
  IconSend,
  IconUpload,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/dates';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import type { ExceptionHistoryEntry } from '@/shared/clearance-exceptions/model/types';
import { ExceptionStatusBadge } from '@/shared/clearance-exceptions/components/StatusBadge';

const ICONS: Record<string, typeof IconPoint> = {
  raise: IconPlus,
  notify: IconSend,
  renotify: IconSend,
  acknowledge: IconEye,
  respond: IconSend,
  approve: IconCircleCheck,
  reject: IconArrowBackUp,
  void: IconBan,
  upload: IconUpload,
  delivery: IconMail,
};

const str = (v: unknown): string | null => (typeof v === 'string' && v ? v : null);

/** What an event's `detail` says worth a line: the file, the channels, a delivery. */
function facts(e: ExceptionHistoryEntry) {
  const d = e.detail ?? {};
  const channels = Array.isArray(d.channels) ? d.channels.filter((c) => typeof c === 'string') : [];
  return {
    fileName: str(d.fileName),
    channels: channels as string[],
    channel: str(d.channel),
    recipient: str(d.recipient) ?? str(d.address),
    result: str(d.result),
    error: str(d.error),
  };
}

export function ExceptionHistory({ entries }: { entries: ExceptionHistoryEntry[] }) {
  const { t } = useExcT();
  const { t: tg } = useTranslation();
  return (
    <HistoryTimeline
      empty={t('detail.noHistory')}
      StatusBadge={ExceptionStatusBadge}
      entries={entries.map((e) => {
        const f = facts(e);
        const role = e.actor.role ? tg(`role.${e.actor.role}`, { defaultValue: e.actor.role }) : '';
        const who =
          e.actor.role === 'RECIPIENT'
            ? t('history.recipientLink')
            : e.actor.name
              ? t('history.by', { name: e.actor.name, role })
              : role;
        return {
          key: `${e.version}-${e.position}`,
          icon: ICONS[e.action] ?? IconPoint,
          action: t(`history.action.${e.action}`, { defaultValue: e.action }),
          // No status badge for an entry without a status to show.
          from: e.toStatus === null ? null : e.fromStatus,
          to: e.toStatus,
          badge: f.result && (
            <Badge size="xs" variant="outline" color={f.result === 'sent' ? 'teal' : 'red'}>
              {t(`delivery.status.${f.result}`, { defaultValue: f.result })}
            </Badge>
          ),
          meta: `${formatDateTime(e.at)}${who ? ` · ${who}` : ''}`,
          children: (
            <>
              {e.reason && <HistoryLine>{t('history.reason', { reason: e.reason })}</HistoryLine>}
              {e.note && <HistoryLine>{t('history.note', { note: e.note })}</HistoryLine>}
              {f.fileName && (
                <Text size="sm" mt={4}>
                  {t('history.file', { name: f.fileName })}
                </Text>
              )}
              {f.channels.length > 0 && !f.channel && (
                <Text size="sm" mt={4}>
                  {f.channels
                    .map((c) => t(`delivery.channel.${c}`, { defaultValue: c }))
                    .join(' · ')}
                </Text>
              )}
              {f.channel && (
                <Text size="sm" mt={4}>
                  {t('history.delivery', {
                    channel: t(`delivery.channel.${f.channel}`, { defaultValue: f.channel }),
                    recipient: f.recipient ?? '',
                    result: t(`delivery.status.${f.result ?? 'pending'}`, {
                      defaultValue: f.result ?? '',
                    }),
                  })}
                  {f.error ? ` (${f.error})` : ''}
                </Text>
              )}
            </>
          ),
        };
      })}
    />
  );
}
