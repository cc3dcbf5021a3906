// DELETE /api/v1/staff/{id}
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { staffPath } from './staffPath';

/** DELETE /api/v1/staff/{id}; errors are not toasted (the dialogs show them). */
export function deleteStaff({
  id,
  version,
}: {
  id: string;
  version: number;
}): Promise<CommandAnswer> {
  return request(staffPath(id), {
    method: 'DELETE',
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useDeleteStaff() {
  return useCommandMutation(deleteStaff, [platformKeys.staff]);
}
