// GET /api/v1/audit/* (audit:read): the log, a stream as of a time, a diff, the chain.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import type { ChainStatus, EventsPage, FieldChange, PublicKey, StreamAsOf } from './types';

export const complianceKeys = {
  all: ['compliance'] as const,
  events: (params: Params) => [...complianceKeys.all, 'events', params] as const,
  stream: (id: string, asOf: string) => [...complianceKeys.all, 'stream', id, asOf] as const,
  diff: (id: string, from: string, to: string) =>
    [...complianceKeys.all, 'diff', id, from, to] as const,
  chain: () => [...complianceKeys.all, 'chain'] as const,
  publicKey: () => [...complianceKeys.all, 'public-key'] as const,
};

export const getEvents = (params: Params) =>
  request<EventsPage>('/api/v1/audit/events', { params });

export const getStream = (id: string, asOf: string) =>
  request<StreamAsOf>(`/api/v1/audit/streams/${encodeURIComponent(id)}`, {
    params: asOf ? { asOf } : {},
  });

export const getDiff = (id: string, from: string, to: string) =>
  request<FieldChange[]>(`/api/v1/audit/streams/${encodeURIComponent(id)}/diff`, {
    params: { from, to },
  });

export const getChain = () => request<ChainStatus>('/api/v1/audit/chain');
export const getPublicKey = () => request<PublicKey>('/api/v1/audit/public-key');

export function useAuditEvents(params: Params) {
  return useQuery({
    queryKey: complianceKeys.events(params),
    queryFn: () => getEvents(params),
    placeholderData: keepPreviousData,
  });
}

/** `asOf` empty: now. */
export function useStreamAsOf(id: string, asOf: string) {
  return useQuery({
    queryKey: complianceKeys.stream(id, asOf),
    queryFn: () => getStream(id, asOf),
    enabled: id !== '',
    placeholderData: keepPreviousData,
  });
}

export function useStreamDiff(id: string, from: string, to: string) {
  return useQuery({
    queryKey: complianceKeys.diff(id, from, to),
    queryFn: () => getDiff(id, from, to),
    enabled: id !== '' && from !== '' && to !== '',
  });
}

export function useChainStatus() {
  return useQuery({ queryKey: complianceKeys.chain(), queryFn: getChain });
}

export function usePublicKey() {
  return useQuery({ queryKey: complianceKeys.publicKey(), queryFn: getPublicKey });
}
