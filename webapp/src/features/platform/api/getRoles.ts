// GET /api/v1/roles: every role with its permission codes.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import { platformKeys } from '@/shared/platform/api/keys';
import type { RoleRecord } from '@/shared/platform/api/types';

export function getRoles(): Promise<RoleRecord[]> {
  return request<RoleRecord[]>('/api/v1/roles', { params: minPositionParam() });
}

export const rolesQueryOptions = () =>
  queryOptions({ queryKey: platformKeys.roles, queryFn: getRoles });

export function useRoles(enabled = true) {
  return useQuery({ ...rolesQueryOptions(), enabled });
}
