// POST /api/v1/staff/{id}/enable: with an optional reason
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from './keys';
import { staffPath } from './staffPath';

/** POST /api/v1/staff/{id}/enable; errors are not toasted (the dialogs show them). */
export function enableStaff({
  id,
  version,
  reason,
}: {
  id: string;
  version: number;
  reason?: string;
}): Promise<CommandAnswer> {
  return request(`${staffPath(id)}/enable`, {
    method: 'POST',
    body: reason ? { reason } : {},
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useEnableStaff() {
  return useCommandMutation(enableStaff, [platformKeys.staff]);
}
