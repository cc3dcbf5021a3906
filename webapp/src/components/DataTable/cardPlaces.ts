// Where each cell of a row goes on its phone card (RowCards): the title column heads it,
// the actions sit at its foot, the rest are labelled lines, `meta.card: false` leaves one out.
import type { Cell } from '@tanstack/react-table';
import type { DataTableFeatures } from './columns';

/** The columns DataTable adds itself: the selection box and the running number. */
export const SELECT_COLUMN = '__select';
export const INDEX_COLUMN = '__index';

export type AnyCell<T extends object> = Cell<DataTableFeatures, T, unknown>;

/** Where each of a row's cells goes on its card. */
export function cardPlaces<T extends object>(cells: AnyCell<T>[]) {
  const own = cells.filter((c) => c.column.id !== SELECT_COLUMN && c.column.id !== INDEX_COLUMN);
  const placeOf = (c: AnyCell<T>) => c.column.columnDef.meta?.card;
  const title =
    own.find((c) => placeOf(c) === 'title') ??
    own.find((c) => placeOf(c) === undefined && c.column.id !== 'actions');
  const actions = own.filter(
    (c) => placeOf(c) === 'actions' || (placeOf(c) === undefined && c.column.id === 'actions'),
  );
  const lines = own.filter(
    (c) => c !== title && !actions.includes(c) && placeOf(c) !== false && placeOf(c) !== 'title',
  );
  return {
    select: cells.find((c) => c.column.id === SELECT_COLUMN),
    title,
    lines,
    actions,
  };
}
