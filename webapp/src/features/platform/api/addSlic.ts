// POST /api/v1/ports/{id}/slics: a facility SLIC of the port
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { portPath } from './portPath';

export interface SlicFields {
  upsFacilityName: string;
  upsFacilitySlic: string;
}

/** POST /api/v1/ports/{id}/slics; errors are not toasted (the dialogs show them). */
export function addSlic({
  portId,
  version,
  body,
}: {
  portId: string;
  version: number;
  body: SlicFields;
}): Promise<CommandAnswer> {
  return request(`${portPath(portId)}/slics`, {
    method: 'POST',
    body,
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useAddSlic() {
  return useCommandMutation(addSlic, [platformKeys.ports, platformKeys.slicInfo]);
}
