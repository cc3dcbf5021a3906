import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { Page } from '@/lib/apiTypes';
import type { Wire } from '@/shared/api/wire';
import { minPositionParam } from '@/lib/readYourWrites';
import { channelKeys } from './keys';

export type CustomsAnomaly = Wire<'AnomalyRow'>;
export type AnomalyState = 'open' | 'all';

/** GET /api/v1/customs/anomalies: the receipts the channel could not apply. */
export function getCustomsAnomalies(state: AnomalyState): Promise<Page<CustomsAnomaly>> {
  return request<Page<CustomsAnomaly>>('/api/v1/customs/anomalies', {
    params: { state, pageNo: 1, pageSize: 100, ...minPositionParam() },
    hideErrorMessage: true,
  });
}

export const customsAnomaliesQueryOptions = (state: AnomalyState) =>
  queryOptions({
    queryKey: channelKeys.anomalies(state),
    queryFn: () => getCustomsAnomalies(state),
    placeholderData: keepPreviousData,
  });

export function useCustomsAnomalies(state: AnomalyState) {
  return useQuery(customsAnomaliesQueryOptions(state));
}
