// The customer's declarations of a type (GET /api/v1/declarations), latest first: the
// wizard's template reads the latest, its copy step lists them or finds one by tracking
// number (exact). Customers see only their own whatever is asked; staff name the customer.
import type { DeclarationType } from '@/lib/declarations';
import { useDeclarations } from '@/shared/declarations/api/getDeclarations';

/** The customer's declarations of `type`, latest first (filtered by exact tracking number). */
export function useCustomerDeclarations(
  type: DeclarationType | null,
  customerId: string | undefined,
  trackingNumber = '',
) {
  return useDeclarations(
    {
      declarationType: type ?? undefined,
      customerId: customerId || undefined,
      trackingNumber: trackingNumber.trim() || undefined,
      sort: 'updatedAt,desc',
      pageNo: 1,
      pageSize: 8,
    },
    Boolean(type),
  );
}
