// The exception's history: who, when, status from -> to, reason or note, the file uploaded
// or the notice delivered, oldest first.
import { Badge, Group, Text, Timeline } from '@mantine/core';
import {
  IconArrowRight,
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
import { useExcT } from '../i18n';
import type { ExceptionHistoryEntry } from '../model/types';
import { ExceptionStatusBadge } from './StatusBadge';

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
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('detail.noHistory')}
      </Text>
    );
  return (
    <Timeline active={entries.length - 1} bulletSize={24} lineWidth={2}>
      {entries.map((e) => {
        const Icon = ICONS[e.action] ?? IconPoint;
        const f = facts(e);
        const role = e.actor.role ? tg(`role.${e.actor.role}`, { defaultValue: e.actor.role }) : '';
        const who =
          e.actor.role === 'RECIPIENT'
            ? t('history.recipientLink')
            : e.actor.name
              ? t('history.by', { name: e.actor.name, role })
              : role;
        return (
          <Timeline.Item
            key={`${e.version}-${e.position}`}
            bullet={<Icon size={13} />}
            title={
              <Group gap="xs" wrap="wrap">
                <Text fw={600} size="sm">
                  {t(`history.action.${e.action}`, { defaultValue: e.action })}
                </Text>
                {e.fromStatus !== null && e.toStatus !== null && e.fromStatus !== e.toStatus ? (
                  <Group gap={4} wrap="nowrap">
                    <ExceptionStatusBadge status={e.fromStatus} size="xs" />
                    <IconArrowRight size={12} aria-label="→" />
                    <ExceptionStatusBadge status={e.toStatus} size="xs" />
                  </Group>
                ) : e.fromStatus === null && e.toStatus !== null ? (
                  <ExceptionStatusBadge status={e.toStatus} size="xs" />
                ) : null}
                {f.result && (
                  <Badge size="xs" variant="outline" color={f.result === 'sent' ? 'teal' : 'red'}>
                    {t(`delivery.status.${f.result}`, { defaultValue: f.result })}
                  </Badge>
                )}
              </Group>
            }
          >
            <Text size="xs" c="dimmed">
              {formatDateTime(e.at)}
              {who ? ` · ${who}` : ''}
            </Text>
            {e.reason && (
              <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
                {t('history.reason', { reason: e.reason })}
              </Text>
            )}
            {e.note && (
              <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
                {t('history.note', { note: e.note })}
              </Text>
            )}
            {f.fileName && (
              <Text size="sm" mt={4}>
                {t('history.file', { name: f.fileName })}
              </Text>
            )}
            {f.channels.length > 0 && !f.channel && (
              <Text size="sm" mt={4}>
                {f.channels.map((c) => t(`delivery.channel.${c}`, { defaultValue: c })).join(' · ')}
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
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
