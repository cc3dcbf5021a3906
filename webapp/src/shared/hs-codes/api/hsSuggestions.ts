// GET /api/v1/hs-suggestions?q=&customerId=&limit=: HS codes for a goods description or code
// digits, the customer's product library first.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import type { HsSuggestion } from '@/shared/hs-codes/model/types';

const PATH = '/api/v1/hs-suggestions';

export const hsKeys = {
  all: ['hs-suggestions'] as const,
  suggest: (params: Params) => ['hs-suggestions', params] as const,
};

export function getHsSuggestions(params: Params): Promise<HsSuggestion[]> {
  // An autocomplete: no loading bar, no toast on failure (the list stays empty).
  return request<HsSuggestion[]>(PATH, { params, hiddenLoading: true, hideErrorMessage: true });
}

export const hsSuggestionsQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: hsKeys.suggest(params),
    queryFn: () => getHsSuggestions(params),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/** Suggestions for `q` (trimmed; nothing is asked while it is empty or `enabled` is false). */
export function useHsSuggestions(q: string, customerId?: string, enabled = true, limit = 8) {
  const text = q.trim().slice(0, 100);
  const params: Params = { q: text, customerId: customerId || undefined, limit };
  return useQuery({ ...hsSuggestionsQueryOptions(params), enabled: enabled && text.length > 0 });
}
