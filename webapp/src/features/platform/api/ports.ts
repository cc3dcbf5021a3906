// Ports and their facility SLICs: the managed list (GET /api/v1/ports), the plain list of
// the export dialog (GET /api/v1/port/slic-info) and the port / SLIC commands.
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
import type { PortRecord } from './types';

/** GET /api/v1/ports: keyword, pageNo, pageSize (ports:management). */
export function getPorts(params: Params): Promise<Page<PortRecord>> {
  return request<Page<PortRecord>>('/api/v1/ports', {
    params: { ...params, ...minPositionParam() },
  });
}

export function usePorts(params: Params) {
  return useQuery({
    queryKey: platformKeys.portList(params),
    queryFn: () => getPorts(params),
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /api/v1/port/slic-info: every port with its facilities (the export dialog). Errors
 * are not toasted: the dialog falls back to text inputs.
 */
export function getSlicInfo(): Promise<PortRecord[]> {
  return request<PortRecord[]>('/api/v1/port/slic-info', {
    params: minPositionParam(),
    hideErrorMessage: true,
    hiddenLoading: true,
  });
}

export const slicInfoQueryOptions = () =>
  queryOptions({
    queryKey: platformKeys.slicInfo,
    queryFn: getSlicInfo,
    staleTime: 5 * 60_000,
    retry: false,
  });

export function useSlicInfo(enabled = true) {
  return useQuery({ ...slicInfoQueryOptions(), enabled });
}

export interface PortFields {
  portCode?: string;
  portName?: string;
  portNameEn?: string;
  declarationSlic?: string;
}

export interface SlicFields {
  upsFacilityName: string;
  upsFacilitySlic: string;
}

export type PortCommand =
  | { kind: 'createPort'; body: PortFields }
  | { kind: 'updatePort'; id: string; version: number; body: PortFields }
  | { kind: 'deletePort'; id: string; version: number }
  | { kind: 'addSlic'; portId: string; version: number; body: SlicFields }
  | { kind: 'updateSlic'; portId: string; slicId: string; version: number; body: SlicFields }
  | { kind: 'removeSlic'; portId: string; slicId: string; version: number };

const portPath = (id: string) => `/api/v1/ports/${encodeURIComponent(id)}`;
const ifMatch = (version: number) => ({ 'If-Match': String(version) });

export function runPortCommand(command: PortCommand): Promise<CommandAnswer> {
  const base = { hideErrorMessage: true } as const;
  switch (command.kind) {
    case 'createPort':
      return request('/api/v1/ports', { ...base, method: 'POST', body: command.body });
    case 'updatePort':
      return request(portPath(command.id), {
        ...base,
        method: 'PUT',
        body: command.body,
        headers: ifMatch(command.version),
      });
    case 'deletePort':
      return request(portPath(command.id), {
        ...base,
        method: 'DELETE',
        headers: ifMatch(command.version),
      });
    case 'addSlic':
      return request(`${portPath(command.portId)}/slics`, {
        ...base,
        method: 'POST',
        body: command.body,
        headers: ifMatch(command.version),
      });
    case 'updateSlic':
      return request(`${portPath(command.portId)}/slics/${encodeURIComponent(command.slicId)}`, {
        ...base,
        method: 'PUT',
        body: command.body,
        headers: ifMatch(command.version),
      });
    case 'removeSlic':
      return request(`${portPath(command.portId)}/slics/${encodeURIComponent(command.slicId)}`, {
        ...base,
        method: 'DELETE',
        headers: ifMatch(command.version),
      });
  }
}

export function usePortCommand() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: runPortCommand,
    onSuccess: async (answer) => {
      noteAnswer(answer);
      await Promise.all([
        client.invalidateQueries({ queryKey: platformKeys.ports }),
        client.invalidateQueries({ queryKey: platformKeys.slicInfo }),
      ]);
    },
  });
}
