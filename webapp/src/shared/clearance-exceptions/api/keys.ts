// Query keys of the exception screens. Everything sits under ['clearance-exceptions'] so a
// command invalidates lists, details and histories at once.
import type { Params } from '@/lib/request';

export const exceptionKeys = {
  all: ['clearance-exceptions'] as const,
  list: (params: Params) => ['clearance-exceptions', 'list', params] as const,
  detail: (id: string) => ['clearance-exceptions', 'detail', id] as const,
  history: (id: string) => ['clearance-exceptions', 'history', id] as const,
};

/** `/api/v1/clearance-exceptions[/{id}[/rest]]`. */
export function exceptionPath(id?: string, rest?: string): string {
  const base = '/api/v1/clearance-exceptions';
  if (!id) return base;
  return `${base}/${encodeURIComponent(id)}${rest ? `/${rest}` : ''}`;
}
