// Staff management endpoints (docs/identity.md "Staff management and account
// administration"): the list query and one hook per command.
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { platformKeys } from './keys';
import { minPositionParam, noteAnswer } from '@/lib/readYourWrites';
import type { CommandAnswer, Page } from '@/lib/apiTypes';
import type { StaffRecord } from './types';

/** GET /api/v1/staff: keyword, pageNo, pageSize (+ minPosition after a command). */
export function getStaff(params: Params): Promise<Page<StaffRecord>> {
  return request<Page<StaffRecord>>('/api/v1/staff', {
    params: { ...params, ...minPositionParam() },
  });
}

export const staffQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: platformKeys.staffList(params),
    queryFn: () => getStaff(params),
    placeholderData: keepPreviousData,
  });

export function useStaff(params: Params) {
  return useQuery(staffQueryOptions(params));
}

export interface NewStaff {
  staffId: string;
  staffName: string;
  staffEmail: string;
  roles: string[];
  username?: string;
}

export interface StaffProfile {
  staffId?: string;
  staffName?: string;
  staffEmail?: string;
}

export type StaffCommand =
  | { kind: 'create'; body: NewStaff }
  | { kind: 'update'; id: string; version: number; body: StaffProfile }
  | { kind: 'delete'; id: string; version: number }
  | { kind: 'roles'; id: string; version: number; roles: string[] }
  | { kind: 'disable' | 'enable'; id: string; version: number; reason?: string }
  | { kind: 'forceReset'; id: string; version: number }
  | { kind: 'transfer'; id: string; version: number };

const ifMatch = (version: number) => ({ 'If-Match': String(version) });
const path = (id: string) => `/api/v1/staff/${encodeURIComponent(id)}`;

/** Sends one staff command; errors are not toasted (the dialogs show them on fields). */
export function runStaffCommand(command: StaffCommand): Promise<CommandAnswer> {
  const base = { hideErrorMessage: true } as const;
  switch (command.kind) {
    case 'create':
      return request('/api/v1/staff', { ...base, method: 'POST', body: command.body });
    case 'update':
      return request(path(command.id), {
        ...base,
        method: 'PUT',
        body: command.body,
        headers: ifMatch(command.version),
      });
    case 'delete':
      return request(path(command.id), {
        ...base,
        method: 'DELETE',
        headers: ifMatch(command.version),
      });
    case 'roles':
      return request(`${path(command.id)}/roles`, {
        ...base,
        method: 'POST',
        body: { roles: command.roles },
        headers: ifMatch(command.version),
      });
    case 'disable':
    case 'enable':
      return request(`${path(command.id)}/${command.kind}`, {
        ...base,
        method: 'POST',
        body: command.reason ? { reason: command.reason } : {},
        headers: ifMatch(command.version),
      });
    case 'forceReset':
      return request(`/api/v1/accounts/${encodeURIComponent(command.id)}/force-password-reset`, {
        ...base,
        method: 'POST',
        body: {},
        headers: ifMatch(command.version),
      });
    case 'transfer':
      return request(`${path(command.id)}/transfer-authority`, {
        ...base,
        method: 'POST',
        body: {},
        headers: ifMatch(command.version),
      });
  }
}

export function useStaffCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runStaffCommand,
    onSuccess: (answer) => {
      noteAnswer(answer);
      return client.invalidateQueries({ queryKey: platformKeys.staff });
    },
  });
}
