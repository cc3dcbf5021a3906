// PUT /api/v1/staff/{id}: the staff member's profile
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { staffPath } from './staffPath';

export interface StaffProfileChange {
  staffId?: string;
  staffName?: string;
  staffEmail?: string;
}

/** PUT /api/v1/staff/{id}; errors are not toasted (the dialogs show them). */
export function updateStaff({
  id,
  version,
  body,
}: {
  id: string;
  version: number;
  body: StaffProfileChange;
}): Promise<CommandAnswer> {
  return request(staffPath(id), {
    method: 'PUT',
    body,
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useUpdateStaff() {
  return useCommandMutation(updateStaff, [platformKeys.staff]);
}
