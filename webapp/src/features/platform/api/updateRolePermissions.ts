// PUT /api/v1/roles/{code}/permissions: a role's permission codes.
import { request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { platformKeys } from '@/shared/platform/api/keys';

export interface RolePermissionsInput {
  roleCode: string;
  version: number;
  permissionCodes: string[];
}

export function updateRolePermissions(input: RolePermissionsInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`/api/v1/roles/${encodeURIComponent(input.roleCode)}/permissions`, {
    method: 'PUT',
    body: { permissionCodes: input.permissionCodes },
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

export function useUpdateRolePermissions() {
  return useCommandMutation(updateRolePermissions, [platformKeys.roles]);
}
