// Where the archive links to: the customer's detail page, the staff declaration form with
// the customer preselected, and the declaration lists filtered by the customer.
import { DECLARATION_TYPES, declarationListPath, type DeclarationType } from '@/lib/declarations';
import { declarationFormPath } from '@/lib/declarations';

export const CUSTOMERS_PATH = '/customers-profile';

export function customerDetailPath(id: string): string {
  return `${CUSTOMERS_PATH}/customers-detail?id=${encodeURIComponent(id)}`;
}

/** The staff "declaration submission" form of `type` for this customer. */
export function fileDeclarationPath(type: string, customerId: string): string {
  const base = declarationFormPath('staff', type);
  return `${base}${base.includes('?') ? '&' : '?'}customerId=${encodeURIComponent(customerId)}`;
}

/** The staff list of `type` filtered by the customer's username (the list's exact filter). */
export function customerDeclarationsPath(type: string, username: string): string {
  return declarationListPath('staff', type, { username });
}

/** The customer's declaration types in the canonical order; all six when none is recorded. */
export function filedTypes(types: readonly string[] | null | undefined): DeclarationType[] {
  const known = DECLARATION_TYPES.filter((t) => types?.includes(t));
  return known.length > 0 ? known : [...DECLARATION_TYPES];
}

/** Ports of /api/v1/port/slic-info -> select options; SLICs of one port (or of all). */
export interface PortSlicEntry {
  portCode?: string;
  portName?: string;
  declarationSlic?: string;
  slicInfoList?: { upsFacilityName?: string; upsFacilitySlic?: string }[];
}

export function portOptions(entries: readonly PortSlicEntry[] | undefined): string[] {
  const seen = new Set<string>();
  for (const e of entries ?? []) if (e.portCode) seen.add(e.portCode);
  return [...seen];
}

export function slicOptions(
  entries: readonly PortSlicEntry[] | undefined,
  portCode: string,
): string[] {
  const seen = new Set<string>();
  for (const e of entries ?? []) {
    if (portCode && e.portCode !== portCode) continue;
    if (e.declarationSlic) seen.add(e.declarationSlic);
    for (const s of e.slicInfoList ?? []) if (s.upsFacilitySlic) seen.add(s.upsFacilitySlic);
  }
  return [...seen];
}
