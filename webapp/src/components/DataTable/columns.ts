import {
  createColumnHelper,
  rowSelectionFeature,
  tableFeatures,
  type ColumnDef,
} from '@tanstack/react-table';

export interface DataTableColumnMeta {
  /** API sort field; the header becomes a sort toggle. */
  sortField?: string;
  width?: number | string;
  align?: 'left' | 'center' | 'right';
  /**
   * Where the column goes when a phone shows the rows as cards (RowCards): 'title' heads
   * the card (default: the first column), 'actions' its foot (default: the column with id
   * `actions`), false leaves it out; any other column is a labelled line of the card.
   */
  card?: 'title' | 'actions' | false;
}

export const dataTableFeatures = tableFeatures({
  rowSelectionFeature,
  columnMeta: {} as DataTableColumnMeta,
});
export type DataTableFeatures = typeof dataTableFeatures;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type DataTableColumn<T extends object> = ColumnDef<DataTableFeatures, T, any>;

/** Column helper typed for DataTable: `const col = dataTableColumns<Row>()`. */
export function dataTableColumns<T extends object>() {
  return createColumnHelper<DataTableFeatures, T>();
}
