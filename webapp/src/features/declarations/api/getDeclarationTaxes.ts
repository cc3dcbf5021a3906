import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '@/lib/request';
import type { Wire } from '@/shared/api/wire';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { minPositionParam } from '@/lib/readYourWrites';

export type DeclarationTaxes = Wire<'DeclarationTaxes'>;
export type TaxComparison = Wire<'TaxComparison'>;

/** GET /api/v1/declarations/{id}/taxes: the estimate recorded at submit beside what customs assessed. */
export function getDeclarationTaxes(id: string): Promise<DeclarationTaxes> {
  return request<DeclarationTaxes>(`/api/v1/declarations/${encodeURIComponent(id)}/taxes`, {
    params: minPositionParam(),
    hiddenLoading: true,
  });
}

export const declarationTaxesQueryOptions = (id: string) =>
  queryOptions({
    queryKey: [...declarationKeys.detail(id), 'taxes'] as const,
    queryFn: () => getDeclarationTaxes(id),
    staleTime: 0,
  });

export function useDeclarationTaxes(id: string | null | undefined) {
  return useQuery({ ...declarationTaxesQueryOptions(id ?? ''), enabled: Boolean(id) });
}
