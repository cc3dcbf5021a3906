import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface PermissionItem {
  permissionCode: string;
  permissionDescription?: string;
  type?: string;
}

/** GET /api/v1/user-permissions (staff only). */
export function getUserPermissions(
  options: { hideErrorMessage?: boolean } = {},
): Promise<PermissionItem[]> {
  return request<PermissionItem[]>('/api/v1/user-permissions', options);
}

export const userPermissionsQueryOptions = () =>
  queryOptions({ queryKey: ['auth', 'user-permissions'], queryFn: () => getUserPermissions() });

export function useUserPermissions(enabled = true) {
  return useQuery({ ...userPermissionsQueryOptions(), enabled });
}
