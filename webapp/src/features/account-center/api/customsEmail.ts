import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { Wire } from '@/shared/api/wire';

export type CustomsEmail = Wire<'CustomsEmail'>;

const key = ['customer', 'customs-email'] as const;

/** GET /api/v1/customer/customs-email: whether customs' release or rejection is e-mailed. */
export function getCustomsEmail(): Promise<CustomsEmail> {
  return request<CustomsEmail>('/api/v1/customer/customs-email', { hideErrorMessage: true });
}

export const customsEmailQueryOptions = () =>
  queryOptions({ queryKey: key, queryFn: getCustomsEmail });

export function useCustomsEmail() {
  return useQuery(customsEmailQueryOptions());
}

/** PUT /api/v1/customer/customs-email `{enabled}`: choose it, or stop it. */
export function setCustomsEmail(enabled: boolean): Promise<unknown> {
  return request('/api/v1/customer/customs-email', {
    method: 'PUT',
    body: { enabled },
    hideErrorMessage: true,
  });
}

export function useSetCustomsEmail() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setCustomsEmail,
    onSuccess: () => client.invalidateQueries({ queryKey: key }),
  });
}
