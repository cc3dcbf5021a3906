// GET /api/v1/admin/audit (staff:management): the administration audit log.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { minPositionParam } from '@/lib/readYourWrites';
import type { Page } from '@/lib/apiTypes';
import { platformKeys } from '@/shared/platform/api/keys';
import type { AuditRecord } from '@/shared/platform/api/types';

export function getAudit(params: Params): Promise<Page<AuditRecord>> {
  return request<Page<AuditRecord>>('/api/v1/admin/audit', {
    params: { ...params, ...minPositionParam() },
  });
}

export const auditQueryOptions = (params: Params) =>
  queryOptions({
    queryKey: platformKeys.audit(params),
    queryFn: () => getAudit(params),
    placeholderData: keepPreviousData,
  });

export function useAudit(params: Params) {
  return useQuery(auditQueryOptions(params));
}
