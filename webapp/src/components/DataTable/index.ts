export { DataTable, type DataTableProps } from './DataTable';
export {
  dataTableColumns,
  dataTableFeatures,
  type DataTableColumn,
  type DataTableColumnMeta,
} from './columns';
export { Pager, type PagerProps } from './Pager';
export { DEFAULT_PAGE_SIZE, PAGER_COUNT, pageCount, pageWindow } from './pager';
export {
  formatSort,
  parseSort,
  useTableSearchParams,
  type SortValue,
  type TableUrlOptions,
  type TableUrlState,
} from './useTableSearchParams';
