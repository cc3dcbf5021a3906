// POST /api/v1/staff/{id}/roles: the roles a staff member holds
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { staffPath } from './staffPath';

/** POST /api/v1/staff/{id}/roles; errors are not toasted (the dialogs show them). */
export function assignStaffRoles({
  id,
  version,
  roles,
}: {
  id: string;
  version: number;
  roles: string[];
}): Promise<CommandAnswer> {
  return request(`${staffPath(id)}/roles`, {
    method: 'POST',
    body: { roles },
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useAssignStaffRoles() {
  return useCommandMutation(assignStaffRoles, [platformKeys.staff]);
}
