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
                {e.result && (
                  <Badge size="xs" variant="outline" color={e.result === 'sent' ? 'teal' : 'red'}>
                    {t(`delivery.status.${e.result}`, { defaultValue: e.result })}
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
            {e.fileName && (
              <Text size="sm" mt={4}>
                {t('history.file', { name: e.fileName })}
              </Text>
            )}
            {e.channel && (
              <Text size="sm" mt={4}>
                {t('history.delivery', {
                  channel: t(`delivery.channel.${e.channel}`, { defaultValue: e.channel }),
                  recipient: e.recipient ?? '',
                  result: t(`delivery.status.${e.result ?? 'pending'}`, {
                    defaultValue: e.result ?? '',
                  }),
                })}
              </Text>
            )}
          </Timeline.Item>
        );
      })}
    </Timeline>
  );
}
