// Query keys of the platform screens; a mutation invalidates its resource's root key.
import type { Params } from '@/lib/request';

export const platformKeys = {
  staff: ['platform', 'staff'] as const,
  staffList: (params: Params) => ['platform', 'staff', 'list', params] as const,
  roles: ['platform', 'roles'] as const,
  ports: ['platform', 'ports'] as const,
  portList: (params: Params) => ['platform', 'ports', 'list', params] as const,
  audit: (params: Params) => ['platform', 'audit', params] as const,
  /** The export dialog's port/SLIC list (shared with the ports screen's invalidation). */
  slicInfo: ['port', 'slic-info'] as const,
};
