// PUT /api/v1/ports/{id}: the port's names and declaration SLIC
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';
import { portPath } from './portPath';
import type { PortFields } from './createPort';

/** PUT /api/v1/ports/{id}; errors are not toasted (the dialogs show them). */
export function updatePort({
  id,
  version,
  body,
}: {
  id: string;
  version: number;
  body: PortFields;
}): Promise<CommandAnswer> {
  return request(portPath(id), {
    method: 'PUT',
    body,
    headers: ifMatch(version),
    hideErrorMessage: true,
  });
}

export function useUpdatePort() {
  return useCommandMutation(updatePort, [platformKeys.ports, platformKeys.slicInfo]);
}
