import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, request } from '@/lib/request';
import type { CommandAnswer } from '@/lib/apiTypes';
import type { ContactBook, SavedContact } from '@/shared/contact-book/model/contacts';

const path = (customerId: string) => `/api/v1/customers/${encodeURIComponent(customerId)}/contacts`;
export const contactBookKey = (customerId: string) => ['contact-book', customerId] as const;

/** GET /api/v1/customers/{id}/contacts. */
export function getContactBook(customerId: string, minPosition?: number): Promise<ContactBook> {
  return request<ContactBook>(path(customerId), {
    params: { minPosition },
    hideErrorMessage: true,
  });
}

export function useContactBook(customerId: string | null | undefined) {
  return useQuery({
    queryKey: contactBookKey(customerId ?? ''),
    queryFn: () => getContactBook(customerId ?? ''),
    enabled: Boolean(customerId),
    staleTime: 30_000,
  });
}

/** PUT /api/v1/customers/{id}/contacts with If-Match: the whole book. */
export function saveContactBook(
  customerId: string,
  version: number,
  contacts: SavedContact[],
): Promise<CommandAnswer> {
  return request<CommandAnswer>(path(customerId), {
    method: 'PUT',
    body: { contacts },
    headers: version > 0 ? { 'If-Match': String(version) } : {},
    hideErrorMessage: true,
  });
}

export function useSaveContactBook(customerId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ version, contacts }: { version: number; contacts: SavedContact[] }) =>
      saveContactBook(customerId, version, contacts),
    onSuccess: async (answer) => {
      const book = await getContactBook(customerId, answer.position);
      client.setQueryData(contactBookKey(customerId), book);
    },
    // A stale version: reload the book (the editor starts again from it).
    onError: (e) => {
      if (e instanceof ApiError && e.status === 409)
        void client.invalidateQueries({ queryKey: contactBookKey(customerId) });
    },
  });
}
