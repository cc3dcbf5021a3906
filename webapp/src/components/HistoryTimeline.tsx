// The one history timeline (declarations, exceptions): oldest first, per entry an icon, the
// action, status from -> to (or the first status), a badge, who and when, and the lines the
// entry has to say.
import type { ComponentType, ReactNode } from 'react';
import { Group, Text, Timeline } from '@mantine/core';
import { IconArrowRight, type Icon } from '@tabler/icons-react';

export interface TimelineEntry {
  key: string;
  icon: Icon;
  action: string;
  from: number | null;
  to: number | null;
  badge?: ReactNode;
  /** When and who, dimmed. */
  meta: string;
  children?: ReactNode;
}

export interface HistoryTimelineProps {
  entries: TimelineEntry[];
  empty: string;
  StatusBadge: ComponentType<{ status: number | null; size?: 'xs' }>;
}

export function HistoryTimeline({ entries, empty, StatusBadge }: HistoryTimelineProps) {
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  return (
    <Timeline active={entries.length - 1} bulletSize={24} lineWidth={2}>
      {entries.map((e) => (
        <Timeline.Item
          key={e.key}
          bullet={<e.icon size={13} />}
          title={
            <Group gap="xs" wrap="wrap">
              <Text fw={600} size="sm">
                {e.action}
              </Text>
              {e.from !== null && e.from !== e.to ? (
                <Group gap={4} wrap="nowrap">
                  <StatusBadge status={e.from} size="xs" />
                  <IconArrowRight size={12} aria-label="→" />
                  <StatusBadge status={e.to} size="xs" />
                </Group>
              ) : e.from === null && e.to !== null ? (
                <StatusBadge status={e.to} size="xs" />
              ) : null}
              {e.badge}
            </Group>
          }
        >
          <Text size="xs" c="dimmed">
            {e.meta}
          </Text>
          {e.children}
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** A line of an entry: a reason, a note, a file (kept as written). */
export function HistoryLine({ children }: { children: ReactNode }) {
  return (
    <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
      {children}
    </Text>
  );
}
