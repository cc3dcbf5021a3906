// Query keys of the customer archive: everything under ['customers'], so a command
// invalidates the list, the details and the pickers at once.
import type { Params } from '@/lib/request';

export const customerKeys = {
  all: ['customers'] as const,
  list: (params: Params) => ['customers', 'list', params] as const,
  detail: (id: string) => ['customers', 'detail', id] as const,
  options: (keyword: string) => ['customers', 'options', keyword] as const,
};
