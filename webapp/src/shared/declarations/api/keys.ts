// Query keys of the declaration screens. Everything sits under ['declarations'] so a
// mutation invalidates lists, details, histories, the activity feed and the welcome counts.
import type { Params } from '@/lib/request';

export const declarationKeys = {
  all: ['declarations'] as const,
  list: (params: Params) => ['declarations', 'list', params] as const,
  detail: (id: string) => ['declarations', 'detail', id] as const,
  history: (id: string) => ['declarations', 'history', id] as const,
  activity: (params: Params) => ['declarations', 'activity', params] as const,
};
