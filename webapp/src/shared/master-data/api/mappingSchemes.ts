// /api/v1/mapping-schemes: list, one (with its definition), create, update (If-Match),
// delete, the mapping targets, and the preview of a scheme on a sample file (multipart).
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { CommandAnswer, Page } from '@/lib/apiTypes';
import { ifMatch, useCommandMutation } from '@/lib/commandMutation';
import { masterDataKeys } from './keys';
import type { MappingPreview, MappingSchemeRecord, MappingTarget, SchemeDefinition } from './types';

const BASE = '/api/v1/mapping-schemes';
const path = (id: string) => `${BASE}/${encodeURIComponent(id)}`;

export function getMappingSchemes(params: Params): Promise<Page<MappingSchemeRecord>> {
  return request<Page<MappingSchemeRecord>>(BASE, { params: { ...params, ...minPositionParam() } });
}

export const mappingSchemesQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: masterDataKeys.schemeList(params),
    queryFn: () => getMappingSchemes(params),
    placeholderData: keepPreviousData,
  });

export function useMappingSchemes(params: Params) {
  return useQuery(mappingSchemesQueryOptions(params));
}

export function getMappingScheme(id: string): Promise<MappingSchemeRecord> {
  return request<MappingSchemeRecord>(path(id), { params: minPositionParam() });
}

export function useMappingScheme(id: string | null) {
  return useQuery({
    queryKey: masterDataKeys.scheme(id ?? ''),
    queryFn: () => getMappingScheme(id ?? ''),
    enabled: !!id,
  });
}

export function getMappingTargets(): Promise<MappingTarget[]> {
  return request<MappingTarget[]>(`${BASE}/targets`);
}

export function useMappingTargets() {
  return useQuery({
    queryKey: masterDataKeys.targets,
    queryFn: getMappingTargets,
    staleTime: Infinity,
  });
}

export type SchemeBody = SchemeDefinition & { customerId?: string };

export function createMappingScheme(body: SchemeBody): Promise<CommandAnswer> {
  return request(BASE, { method: 'POST', body, hideErrorMessage: true });
}

export function updateMappingScheme(input: {
  id: string;
  version: number;
  body: SchemeDefinition;
}): Promise<CommandAnswer> {
  return request(path(input.id), {
    method: 'PUT',
    body: input.body,
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

export function deleteMappingScheme(input: {
  id: string;
  version: number;
}): Promise<CommandAnswer> {
  return request(path(input.id), {
    method: 'DELETE',
    headers: ifMatch(input.version),
    hideErrorMessage: true,
  });
}

/** POST /api/v1/mapping-schemes/preview: the sample's first rows as the scheme maps them. */
export function previewMappingScheme(input: {
  file: File;
  scheme: SchemeDefinition;
  rows?: number;
}): Promise<MappingPreview> {
  const formData = new FormData();
  formData.append('file', input.file);
  formData.append('scheme', JSON.stringify(input.scheme));
  if (input.rows) formData.append('rows', String(input.rows));
  return request<MappingPreview>(`${BASE}/preview`, {
    method: 'POST',
    formData,
    hideErrorMessage: true,
    timeout: 60_000,
  });
}

export const useCreateMappingScheme = () =>
  useCommandMutation(createMappingScheme, [masterDataKeys.schemes]);
export const useUpdateMappingScheme = () =>
  useCommandMutation(updateMappingScheme, [masterDataKeys.schemes]);
export const useDeleteMappingScheme = () =>
  useCommandMutation(deleteMappingScheme, [masterDataKeys.schemes]);
export const usePreviewMappingScheme = () => useMutation({ mutationFn: previewMappingScheme });
