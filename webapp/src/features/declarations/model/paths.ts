// Where the declaration screens link to. Detail pages take the id in the query; staff
// create and edit on the "declaration submission" pages under /customers-profile, customers
// on their own detail pages (`?edit=1`, or no id for a new one).
import { declarationDetailPath, type Area } from '@/lib/declarations';
import { classOf, directionOf } from './types';

export { declarationDetailPath };

function segment(type: string): string {
  const cls = classOf(type);
  return cls === 'D' ? 'detail' : `detail-${cls.toLowerCase()}`;
}

function shipmentType(type: string): number {
  return directionOf(type) === 'export' ? 1 : 0;
}

/** The create (no id) or edit form of a declaration of `type`. */
export function declarationFormPath(area: Area, type: string, id?: string): string {
  if (area === 'staff') {
    const base = `/customers-profile/${segment(type)}/${shipmentType(type)}`;
    return id ? `${base}?id=${encodeURIComponent(id)}` : base;
  }
  const base = `/customs-clearance-supply/${segment(type)}/${shipmentType(type)}`;
  return id ? `${base}?id=${encodeURIComponent(id)}&edit=1` : `${base}?new=1`;
}

/** The print view. */
export function declarationPdfPath(id: string): string {
  return `/page-pdf?id=${encodeURIComponent(id)}`;
}
