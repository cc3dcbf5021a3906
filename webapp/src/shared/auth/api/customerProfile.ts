import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';

export interface CustomerProfile {
  username: string;
  companyName: string;
  city?: string;
  portCode?: string;
  slicCode?: string;
  postalCode?: string;
  isLocked: boolean;
  upsAccount?: string;
  upsId?: string;
  accountNo?: string;
  email?: string;
  customerId?: string;
}

/** GET /api/v1/customer/profile. */
export function getCustomerProfile(
  options: { hideErrorMessage?: boolean } = {},
): Promise<CustomerProfile> {
  return request<CustomerProfile>('/api/v1/customer/profile', options);
}

export const customerProfileQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'customer-profile'],
    queryFn: () => getCustomerProfile(),
    staleTime: 5 * 60_000,
  });

export function useCustomerProfile(enabled = true) {
  return useQuery({ ...customerProfileQueryOptions(), enabled });
}
