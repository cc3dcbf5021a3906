// Query keys of the upload results: everything under ['upload'].
import type { Params } from '@/lib/request';

export const uploadKeys = {
  all: ['upload'] as const,
  status: (ids: readonly string[]) => ['upload', 'status', ids.join(',')] as const,
  unconfirmed: ['upload', 'unconfirmed'] as const,
  history: (params: Params) => ['upload', 'history', params] as const,
  detail: (id: string, params: Params) => ['upload', 'detail', id, params] as const,
};
