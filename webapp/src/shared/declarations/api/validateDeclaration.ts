// POST /api/v1/declarations/validate: the form checked by the server's own rules, nothing
// stored. The wizard calls it as the user types (debounced), so it is a query keyed by the
// body: the same form is not checked twice, and the last answer stays shown meanwhile.
import { useMemo } from 'react';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useDebouncedValue } from '@mantine/hooks';
import { request } from '@/lib/request';
import type { DeclarationData } from '@/shared/declarations/model/types';

export interface FormProblem {
  /** Server path: `declarationGoodsInfo[2].goodsCode`. */
  field: string;
  message: string;
  rule: string;
  /** The form cannot even be saved as a draft. */
  blocksDraft: boolean;
}

export interface ClassCheck {
  declared: 'B' | 'C' | 'D';
  proposed: 'B' | 'C' | 'D' | null;
  agrees: boolean;
  reasonZh: string | null;
  reasonEn: string | null;
  valueCny: number | null;
}

/** A tax of one line: the rate as published (and the clause applied), its base, the amount (CNY). */
export interface TaxItem {
  rate: string;
  basis: number;
  amount: number;
}

export interface TaxNote {
  code: string;
  field: string | null;
  zh: string;
  en: string;
}

export interface LineEstimate {
  index: number;
  goodsCode: string | null;
  valueCny: number | null;
  duty: TaxItem | null;
  consumptionTax: TaxItem | null;
  vat: TaxItem | null;
  personalTax: TaxItem | null;
  category: string | null;
  notes: TaxNote[];
}

/** The server's duties-and-taxes estimate (docs/taxes.md). */
export interface TaxEstimate {
  regime: 'general' | 'personal' | 'crossBorder' | 'export';
  judgedOn: string;
  goodsCny: number | null;
  freightCny: number | null;
  insuranceCny: number | null;
  dutiableCny: number | null;
  lines: LineEstimate[];
  duty: number;
  consumptionTax: number;
  vat: number;
  personalTax: number;
  total: number;
  landedCny: number | null;
  complete: boolean;
  exemptions: TaxNote[];
  notes: TaxNote[];
  tables: { table: string; effectiveFrom: string; contentHash: string }[];
}

/** The buyer's yearly cross-border allowance (9610/1210/1239), CNY. */
export interface AllowanceUse {
  year: number;
  limitCny: number;
  usedCny: number;
  remainingCny: number;
  /** What this declaration would use (its CIF value). */
  thisCny: number;
}

export interface FormCheck {
  declarationType: string;
  valid: boolean;
  draftValid: boolean;
  judgedOn: string;
  problems: FormProblem[];
  /** Worth a second look, blocks nothing: goods in another currency than the header. */
  warnings?: FormProblem[];
  class: ClassCheck;
  tax?: TaxEstimate;
  /** Cross-border retail import with the buyer's ID number: used / remaining this year. */
  allowance?: AllowanceUse | null;
}

export interface ValidateInput {
  declarationType: string;
  /** Staff: the customer the form is for. */
  customerId?: string | null;
  data: DeclarationData;
}

export function validateDeclaration(input: ValidateInput, signal?: AbortSignal) {
  const body: Record<string, unknown> = { ...input.data, declarationType: input.declarationType };
  if (input.customerId) body.customerId = input.customerId;
  return request<FormCheck>('/api/v1/declarations/validate', {
    method: 'POST',
    body,
    hiddenLoading: true,
    hideErrorMessage: true,
    signal,
  });
}

export const validateQueryOptions = (input: ValidateInput) =>
  queryOptions({
    queryKey: ['declarations', 'validate', input] as const,
    queryFn: ({ signal }) => validateDeclaration(input, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });

/** Time the form must rest before it is sent for checking. */
export const VALIDATE_DEBOUNCE_MS = 400;

/**
 * The server's check of `input`, `VALIDATE_DEBOUNCE_MS` after it last changed. The input is
 * compared by content (a form rebuilt on every render is the same form).
 */
export function useLiveValidation(input: ValidateInput | null) {
  const [debounced] = useDebouncedValue(input ? JSON.stringify(input) : '', VALIDATE_DEBOUNCE_MS);
  const parsed = useMemo(
    () => (debounced ? (JSON.parse(debounced) as ValidateInput) : null),
    [debounced],
  );
  return useQuery({
    ...validateQueryOptions(parsed ?? { declarationType: '', data: {} }),
    enabled: parsed !== null,
  });
}
