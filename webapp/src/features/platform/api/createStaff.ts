// POST /api/v1/staff: a staff member with their roles
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';

export interface NewStaff {
  staffId: string;
  staffName: string;
  staffEmail: string;
  roles: string[];
  username?: string;
}

/** POST /api/v1/staff; errors are not toasted (the dialogs show them). */
export function createStaff(body: NewStaff): Promise<CommandAnswer> {
  return request('/api/v1/staff', { method: 'POST', body, hideErrorMessage: true });
}

export function useCreateStaff() {
  return useCommandMutation(createStaff, [platformKeys.staff]);
}
