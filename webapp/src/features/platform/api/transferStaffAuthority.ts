// POST /api/v1/staff/{id}/transfer-authority: hand over administrative authority
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { staffPath } from './staffPath';

/** POST /api/v1/staff/{id}/transfer-authority; errors are not toasted (the dialogs show them). */
export function transferStaffAuthority({
  id,
  version,
}: {
  id: string;
  version: number;
}): Promise<CommandAnswer> {
  return request(`${staffPath(id)}/transfer-authority`, {
    method: 'POST',
    body: {},
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useTransferStaffAuthority() {
  return useCommandMutation(transferStaffAuthority, [platformKeys.staff]);
}
