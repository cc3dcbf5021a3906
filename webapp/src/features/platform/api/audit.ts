// GET /api/v1/admin/audit (staff:management): the administration audit log.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { request, type Params } from '@/lib/request';
import { platformKeys } from './keys';
import { minPositionParam } from '@/lib/readYourWrites';
import type { Page } from '@/lib/apiTypes';
import type { AuditRecord } from './types';

export function getAudit(params: Params): Promise<Page<AuditRecord>> {
  return request<Page<AuditRecord>>('/api/v1/admin/audit', {
    params: { ...params, ...minPositionParam() },
  });
}

export function useAudit(params: Params) {
  return useQuery({
    queryKey: platformKeys.audit(params),
    queryFn: () => getAudit(params),
    placeholderData: keepPreviousData,
  });
}
