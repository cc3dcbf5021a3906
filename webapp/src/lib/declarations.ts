// Declaration vocabulary shared by the shell, the welcome pages and the declaration screens.

export const DECLARATION_TYPES = ['OB', 'OC', 'OD', 'IB', 'IC', 'ID'] as const;
export type DeclarationType = (typeof DECLARATION_TYPES)[number];

/** Status codes of spec 4 in display order (-1 "all" is a filter value, not a status). */
export const DECLARATION_STATUSES = [0, 1, 2, 3, 4, 10, 11, 5] as const;
export type DeclarationStatus = (typeof DECLARATION_STATUSES)[number];

export const STATUS_COLORS: Record<number, string> = {
  0: 'gray',
  1: 'blue',
  2: 'cyan',
  3: 'teal',
  4: 'orange',
  5: 'dark',
  10: 'red',
  11: 'grape',
};

export type Area = 'customer' | 'staff';

const AREA_BASE: Record<Area, string> = {
  customer: '/customs-clearance-supply',
  staff: '/customs-clearance',
};

export function shipmentDirection(type: string): 'export' | 'import' {
  return type.startsWith('I') ? 'import' : 'export';
}

/** e.g. ('staff', 'OC', {status: 1}) -> /customs-clearance/export/export-c?status=1 */
export function declarationListPath(
  area: Area,
  type: string,
  query: Record<string, string | number | undefined> = {},
): string {
  const dir = shipmentDirection(type);
  const cls = type.slice(1).toLowerCase();
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== '') search.set(k, String(v));
  const qs = search.toString();
  return `${AREA_BASE[area]}/${dir}/${dir}-${cls}${qs ? `?${qs}` : ''}`;
}

/** e.g. ('customer', 'OC', 'abc') -> /customs-clearance-supply/detail-c/1?id=abc */
export function declarationDetailPath(area: Area, type: string, id: string): string {
  const cls = type.slice(1).toUpperCase();
  const segment = cls === 'D' ? 'detail' : `detail-${cls.toLowerCase()}`;
  const shipmentType = shipmentDirection(type) === 'export' ? 1 : 0;
  return `${AREA_BASE[area]}/${segment}/${shipmentType}?id=${encodeURIComponent(id)}`;
}

/**
 * The create (no id) or edit form of a declaration of `type`: staff create and edit on the
 * "declaration submission" pages under /customers-profile, customers on their own detail
 * pages (`?edit=1`, or `?new=1` for a new one).
 */
export function declarationFormPath(area: Area, type: string, id?: string): string {
  const cls = type.slice(-1).toUpperCase();
  const segment = cls === 'B' || cls === 'C' ? `detail-${cls.toLowerCase()}` : 'detail';
  const shipmentType = type.toUpperCase().startsWith('I') ? 0 : 1;
  if (area === 'staff') {
    const base = `/customers-profile/${segment}/${shipmentType}`;
    return id ? `${base}?id=${encodeURIComponent(id)}` : base;
  }
  const base = `/customs-clearance-supply/${segment}/${shipmentType}`;
  return id ? `${base}?id=${encodeURIComponent(id)}&edit=1` : `${base}?new=1`;
}

/** The print view. */
export function declarationPdfPath(id: string): string {
  return `/page-pdf?id=${encodeURIComponent(id)}`;
}
