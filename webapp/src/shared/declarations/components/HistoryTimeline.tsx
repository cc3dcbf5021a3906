// The declaration's history: who, when, status from -> to, reason, receipt code and the
// fields changed (old -> new; goods lines added, removed or changed field by field:
// ChangeDiff), oldest first.
import { useState } from 'react';
import { Anchor, Badge, Code, List, Stack, Text } from '@mantine/core';
import { HistoryLine, HistoryTimeline as Timeline } from '@/components/HistoryTimeline';
import {
  IconArrowRight,
  IconCircleCheck,
  IconEdit,
  IconPlus,
  IconSend,
  IconTrash,
  IconArrowBackUp,
  IconPoint,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDeclT } from '@/shared/declarations/i18n';
import { formatDateTime } from '@/lib/dates';
import { formatValue } from '@/shared/declarations/model/format';
import { lineChangeKind } from '@/shared/declarations/model/history';
import { useChangeLabel } from './useChangeLabel';
import { ChangeDiff } from './ChangeDiff';
import type { FieldChange, HistoryEntry } from '@/shared/declarations/model/types';
import { StatusBadge } from './StatusBadge';

const ICONS: Record<string, typeof IconPoint> = {
  create: IconPlus,
  edit: IconEdit,
  amend: IconEdit,
  submit: IconSend,
  complete: IconCircleCheck,
  delete: IconTrash,
  return: IconArrowBackUp,
  'send-back': IconArrowBackUp,
  withdraw: IconArrowBackUp,
};

const SHOWN_CHANGES = 5;

const DECISION_ORDER: Record<string, number> = { changed: 0, rejected: 1, accepted: 2, '': 3 };
const DECISION_COLORS = { accepted: 'green', changed: 'blue', rejected: 'red' } as const;

/** A field proposed from documents: proposed value, decision, saved value, source, confidence. */
function Provenance({ change: c }: { change: FieldChange }) {
  const { t } = useDeclT();
  const decision = c.decision ?? 'accepted';
  return (
    <Text span size="xs" data-provenance={c.field}>
      <Code fz="xs">{formatValue(c.old)}</Code>{' '}
      <Badge size="xs" variant="light" color={DECISION_COLORS[decision]}>
        {t(`history.decision.${decision}`)}
      </Badge>
      {decision === 'changed' && (
        <>
          <IconArrowRight size={11} style={{ margin: '0 4px', verticalAlign: 'middle' }} />
          <Code fz="xs">{formatValue(c.new)}</Code>
        </>
      )}{' '}
      <Text span size="xs" c="dimmed">
        {t('history.provenance', {
          source: t(`history.source.${c.source ?? ''}`, { defaultValue: c.source ?? '' }),
          location: c.location ? ` (${c.location})` : '',
          confidence: Math.round((c.confidence ?? 0) * 100),
        })}
      </Text>
    </Text>
  );
}

/** An edit's changes: the form's fields, then each goods line added, removed or changed. */
function Changes({ changes }: { changes: FieldChange[] }) {
  const { t } = useDeclT();
  if (changes.some((c) => c.decision)) return <ProposedChanges changes={changes} />;
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {t('history.changes', { count: changes.length })}
      </Text>
      <ChangeDiff changes={changes} limit={SHOWN_CHANGES} />
    </Stack>
  );
}

/** The fields of a draft made from documents, the reviewer's corrections and rejections first. */
function ProposedChanges({ changes }: { changes: FieldChange[] }) {
  const { t } = useDeclT();
  const label = useChangeLabel();
  const [all, setAll] = useState(false);
  const ordered = [...changes].sort(
    (a, b) => DECISION_ORDER[a.decision ?? ''] - DECISION_ORDER[b.decision ?? ''],
  );
  const shown = all ? ordered : ordered.slice(0, SHOWN_CHANGES);
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed">
        {t('history.proposed', { count: changes.length })}
      </Text>
      <List size="xs" spacing={2} withPadding>
        {shown.map((c, i) => {
          const kind = lineChangeKind(c.field, c.old, c.new);
          return (
            <List.Item key={`${c.field}-${i}`}>
              <Text span size="xs" fw={500}>
                {label(c.field)}
              </Text>{' '}
              {kind ? (
                <Text span size="xs" c="dimmed">
                  {kind === 'added' ? t('history.lineAdded') : t('history.lineRemoved')}
                </Text>
              ) : c.decision ? (
                <Provenance change={c} />
              ) : (
                <>
                  <Code fz="xs">{formatValue(c.old)}</Code>
                  <IconArrowRight size={11} style={{ margin: '0 4px', verticalAlign: 'middle' }} />
                  <Code fz="xs">{formatValue(c.new)}</Code>
                </>
              )}
            </List.Item>
          );
        })}
      </List>
      {changes.length > SHOWN_CHANGES && (
        <Anchor component="button" type="button" size="xs" onClick={() => setAll((v) => !v)}>
          {all ? '−' : `+${changes.length - SHOWN_CHANGES}`}
        </Anchor>
      )}
    </Stack>
  );
}

export function HistoryTimeline({ entries }: { entries: HistoryEntry[] }) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  return (
    <Timeline
      empty={t('detail.noHistory')}
      StatusBadge={StatusBadge}
      entries={entries.map((e) => {
        const role = e.actor.role ? tg(`role.${e.actor.role}`, { defaultValue: e.actor.role }) : '';
        return {
          key: `${e.version}-${e.position}`,
          icon: ICONS[e.action] ?? IconPoint,
          action: t(`history.action.${e.action}`, { defaultValue: e.action }),
          from: e.fromStatus,
          to: e.toStatus,
          badge: e.receiptCode && (
            <Badge size="xs" variant="outline" color="gray">
              {t(`receipt.${e.receiptCode}`, { defaultValue: e.receiptCode })}
            </Badge>
          ),
          meta: `${formatDateTime(e.at)} · ${e.actor.name ? t('history.by', { name: e.actor.name, role }) : role}`,
          children: (
            <>
              {e.reason && <HistoryLine>{t('history.reason', { reason: e.reason })}</HistoryLine>}
              {e.changes && e.changes.length > 0 && (
                <div style={{ marginTop: 4 }}>
                  <Changes changes={e.changes} />
                </div>
              )}
            </>
          ),
        };
      })}
    />
  );
}
