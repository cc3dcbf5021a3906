// PUT /api/v1/ports/{id}/slics/{slicId}: a facility SLIC's name and code
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { slicPath } from './portPath';
import type { SlicFields } from './addSlic';

/** PUT /api/v1/ports/{id}/slics/{slicId}; errors are not toasted (the dialogs show them). */
export function updateSlic({
  portId,
  slicId,
  version,
  body,
}: {
  portId: string;
  slicId: string;
  version: number;
  body: SlicFields;
}): Promise<CommandAnswer> {
  return request(slicPath(portId, slicId), {
    method: 'PUT',
    body,
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useUpdateSlic() {
  return useCommandMutation(updateSlic, [platformKeys.ports, platformKeys.slicInfo]);
}
