// DELETE /api/v1/ports/{id}
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { portPath } from './portPath';

/** DELETE /api/v1/ports/{id}; errors are not toasted (the dialogs show them). */
export function deletePort({
  id,
  version,
}: {
  id: string;
  version: number;
}): Promise<CommandAnswer> {
  return request(portPath(id), {
    method: 'DELETE',
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useDeletePort() {
  return useCommandMutation(deletePort, [platformKeys.ports, platformKeys.slicInfo]);
}
