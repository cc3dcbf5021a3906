// Where the exception screens live. Staff: /clearance-exception/... (spec 2.4); customers:
// /customer-exception/... (the customer menu group of spec 2.3 for import and export
// exceptions and creating one). Detail pages take the exception id in the query (`?id=`).
import type { Direction } from './listFilters';

export type Area = 'customer' | 'staff';

const ROOT: Record<Area, string> = {
  staff: '/clearance-exception',
  customer: '/customer-exception',
};

export const exceptionListPath = (area: Area, direction: Direction): string =>
  `${ROOT[area]}/${direction}`;

export const exceptionDetailPath = (area: Area, id: string): string =>
  `${ROOT[area]}/detail?id=${encodeURIComponent(id)}`;

export const exceptionCreatePath = (area: Area, declarationId?: string): string =>
  `${ROOT[area]}/createException${declarationId ? `?declarationId=${encodeURIComponent(declarationId)}` : ''}`;

/** 0 import, 1 export; anything else reads as export. */
export const directionOfShipment = (shipmentType: number | string | null | undefined): Direction =>
  Number(shipmentType) === 0 ? 'import' : 'export';
