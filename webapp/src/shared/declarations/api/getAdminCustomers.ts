import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import { retryReadBehindOnly } from '@/lib/queryClient';

export interface CustomerOption {
  customerId?: string;
  id?: string;
  username: string;
  companyName?: string | null;
}

/**
 * GET /api/v1/admin/customers (spec 7): the customer list for the export dialog and the
 * staff's "new declaration" form. The endpoint may not exist yet: callers fall back to a
 * text input when this query fails (errors are not toasted).
 */
export async function getAdminCustomers(declarationType?: string): Promise<CustomerOption[]> {
  const data = await request<{ records?: CustomerOption[] } | CustomerOption[]>(
    '/api/v1/admin/customers',
    { params: { declarationType }, hideErrorMessage: true, hiddenLoading: true },
  );
  return Array.isArray(data) ? data : (data?.records ?? []);
}

export const adminCustomersQueryOptions = (declarationType?: string) =>
  queryOptions({
    queryKey: ['admin', 'customers', declarationType ?? ''],
    queryFn: () => getAdminCustomers(declarationType),
    staleTime: 5 * 60_000,
    retry: retryReadBehindOnly,
  });

export function useAdminCustomers(declarationType?: string, enabled = true) {
  return useQuery({ ...adminCustomersQueryOptions(declarationType), enabled });
}
