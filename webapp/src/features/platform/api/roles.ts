// Roles and their permission codes: GET /api/v1/roles, PUT /api/v1/roles/{code}/permissions.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { platformKeys } from './keys';
import { minPositionParam, noteAnswer } from '@/lib/readYourWrites';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { RoleRecord } from './types';

export function getRoles(): Promise<RoleRecord[]> {
  return request<RoleRecord[]>('/api/v1/roles', { params: minPositionParam() });
}

export const rolesQueryOptions = () =>
  queryOptions({ queryKey: platformKeys.roles, queryFn: getRoles });

export function useRoles(enabled = true) {
  return useQuery({ ...rolesQueryOptions(), enabled });
}

export interface RolePermissionsInput {
  roleCode: string;
  version: number;
  permissionCodes: string[];
}

export function updateRolePermissions(input: RolePermissionsInput): Promise<CommandAnswer> {
  return request<CommandAnswer>(`/api/v1/roles/${encodeURIComponent(input.roleCode)}/permissions`, {
    method: 'PUT',
    body: { permissionCodes: input.permissionCodes },
    headers: { 'If-Match': String(input.version) },
    hideErrorMessage: true,
  });
}

export function useUpdateRolePermissions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateRolePermissions,
    onSuccess: (answer) => {
      noteAnswer(answer);
      return client.invalidateQueries({ queryKey: platformKeys.roles });
    },
  });
}
