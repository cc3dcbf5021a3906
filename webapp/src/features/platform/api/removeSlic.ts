// DELETE /api/v1/ports/{id}/slics/{slicId}
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { slicPath } from './portPath';

/** DELETE /api/v1/ports/{id}/slics/{slicId}; errors are not toasted (the dialogs show them). */
export function removeSlic({
  portId,
  slicId,
  version,
}: {
  portId: string;
  slicId: string;
  version: number;
}): Promise<CommandAnswer> {
  return request(slicPath(portId, slicId), {
    method: 'DELETE',
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useRemoveSlic() {
  return useCommandMutation(removeSlic, [platformKeys.ports, platformKeys.slicInfo]);
}
