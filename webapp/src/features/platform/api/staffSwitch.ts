// POST /api/v1/staff/{id}/disable and /enable: with an optional reason; errors are not
// toasted (the dialogs show them).
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { staffPath } from './staffPath';

export interface StaffSwitchInput {
  id: string;
  version: number;
  reason?: string;
}

function switchStaff(move: 'disable' | 'enable') {
  return ({ id, version, reason }: StaffSwitchInput): Promise<CommandAnswer> =>
    request(`${staffPath(id)}/${move}`, {
      method: 'POST',
      body: reason ? { reason } : {},
      headers: ifMatch(version),
      hideErrorMessage: true,
    });
}

/** POST /api/v1/staff/{id}/disable. */
export const disableStaff = switchStaff('disable');
/** POST /api/v1/staff/{id}/enable. */
export const enableStaff = switchStaff('enable');

export function useDisableStaff() {
  return useCommandMutation(disableStaff, [platformKeys.staff]);
}

export function useEnableStaff() {
  return useCommandMutation(enableStaff, [platformKeys.staff]);
}
