// How many clearance exceptions wait on the signed-in customer (notified, or awaiting their
// answer): the badge of the menu's exceptions group. Staff: 0, nothing asked.
import { useQuery } from '@tanstack/react-query';
import { isCustomer, type Role } from '@/lib/roles';
import { getExceptions } from '@/shared/clearance-exceptions/api/getExceptions';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';

export function useWaitingOnMe(role: Role | null): number {
  const customer = isCustomer(role);
  const query = useQuery({
    queryKey: [...exceptionKeys.all, 'waiting-on-me'],
    queryFn: async () => {
      const [notified, answering] = await Promise.all([
        getExceptions({ status: 2, pageNo: 1, pageSize: 1 }),
        getExceptions({ status: 3, pageNo: 1, pageSize: 1 }),
      ]);
      return notified.total + answering.total;
    },
    enabled: customer,
    staleTime: 30_000,
    refetchInterval: 60_000,
  });
  return customer ? (query.data ?? 0) : 0;
}
