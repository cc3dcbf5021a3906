import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface StaffProfile {
  staffId: string;
  staffEmail: string;
  staffName?: string;
  roleList: { roleCode: string; sortNo: number }[];
}

/** GET /api/v1/staff/profile. */
export function getStaffProfile(): Promise<StaffProfile> {
  return request<StaffProfile>('/api/v1/staff/profile', { hiddenLoading: true });
}

export const staffProfileQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'staff-profile'],
    queryFn: getStaffProfile,
    staleTime: 5 * 60_000,
  });

export function useStaffProfile(enabled = true) {
  return useQuery({ ...staffProfileQueryOptions(), enabled });
}

/** Spec 3: the first role is the role code, fixed role and department. */
export function firstRole(profile: StaffProfile | undefined): string | undefined {
  return profile?.roleList?.[0]?.roleCode;
}
