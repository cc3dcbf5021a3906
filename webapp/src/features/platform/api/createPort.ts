// POST /api/v1/ports: a new port
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';

export interface PortFields {
  portCode?: string;
  portName?: string;
  portNameEn?: string;
  declarationSlic?: string;
}

/** POST /api/v1/ports; errors are not toasted (the dialogs show them). */
export function createPort(body: PortFields): Promise<CommandAnswer> {
  return request('/api/v1/ports', { method: 'POST', body, hideErrorMessage: true });
}

export function useCreatePort() {
  return useCommandMutation(createPort, [platformKeys.ports, platformKeys.slicInfo]);
}
