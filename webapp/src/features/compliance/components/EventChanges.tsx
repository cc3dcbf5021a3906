// A declaration edit's changes in the event log: field by field, goods lines added, removed
// or changed (the declaration history's ChangeDiff), above the whole payload.
import { Box } from '@mantine/core';
import { ChangeDiff } from '@/shared/declarations/components/ChangeDiff';
import { payloadChanges } from '@/shared/declarations/model/history';
import type { AuditEvent } from '@/features/compliance/api/types';

export function EventChanges({ event }: { event: AuditEvent }) {
  if (!event.eventType.startsWith('Declaration')) return null;
  const changes = payloadChanges(event.payload);
  if (!changes) return null;
  return (
    <Box mb="xs" data-testid="event-changes">
      <ChangeDiff changes={changes} limit={changes.length} />
    </Box>
  );
}
