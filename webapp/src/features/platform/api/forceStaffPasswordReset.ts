// POST /api/v1/accounts/{id}/force-password-reset: the login must set a new password
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';

/** POST /api/v1/accounts/{id}/force-password-reset; errors are not toasted (the dialogs show them). */
export function forceStaffPasswordReset({
  id,
  version,
}: {
  id: string;
  version: number;
}): Promise<CommandAnswer> {
  return request(`/api/v1/accounts/${encodeURIComponent(id)}/force-password-reset`, {
    method: 'POST',
    body: {},
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useForceStaffPasswordReset() {
  return useCommandMutation(forceStaffPasswordReset, [platformKeys.staff]);
}
