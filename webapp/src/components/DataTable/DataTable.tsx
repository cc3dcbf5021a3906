// The generic table of spec 2.6 on TanStack Table + Mantine: optional selection column,
// index column, "no data", and the full pager. Paging and sorting are server-side and come
// from the URL (useTableSearchParams); the table only renders and reports changes. On a
// phone's width the same rows are a stack of cards (RowCards) instead of a table that
// scrolls sideways. A list without URL state (`urlState` left out) has no pager or sort
// toggles: its page pages itself.
import { useMemo } from 'react';
import {
  Box,
  Checkbox,
  Group,
  LoadingOverlay,
  ScrollArea,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import {
  createColumnHelper,
  useTable,
  type RowSelectionState,
  type Updater,
} from '@tanstack/react-table';
import { useTranslation } from 'react-i18next';
import { dataTableFeatures, type DataTableColumn, type DataTableFeatures } from './columns';
import { Pager } from './Pager';
import { RowCards } from './RowCards';
import { INDEX_COLUMN, SELECT_COLUMN } from './cardPlaces';
import { usePhoneWidth } from '../usePhoneWidth';
import type { SortValue, TableUrlState } from './useTableSearchParams';

export interface DataTableProps<T extends object> {
  columns: DataTableColumn<T>[];
  data: T[] | undefined;
  total: number;
  getRowId: (row: T) => string;
  /**
   * URL state from useTableSearchParams (page, pageSize, sort and their setters); without
   * it the table shows one page as given, with no pager and no sort toggles.
   */
  urlState?: Pick<
    TableUrlState,
    'page' | 'pageSize' | 'sort' | 'setPage' | 'setPageSize' | 'setSort'
  >;
  loading?: boolean;
  /** Show the selection column; selection is controlled by the parent. */
  selectable?: boolean;
  selectedIds?: readonly string[];
  onSelectionChange?: (ids: string[]) => void;
  canSelect?: (row: T) => boolean;
  /** Show the index column (default true): numbering continues across pages. */
  showIndex?: boolean;
  emptyText?: string;
  /** Accessible name of the table. */
  caption?: string;
  onRowClick?: (row: T) => void;
}

const EMPTY: never[] = [];

function nextSort(current: SortValue | null, field: string): SortValue | null {
  if (!current || current.field !== field) return { field, dir: 'asc' };
  if (current.dir === 'asc') return { field, dir: 'desc' };
  return null;
}

export function DataTable<T extends object>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const {
    columns,
    data,
    total,
    getRowId,
    urlState,
    loading,
    selectable,
    selectedIds = EMPTY,
    onSelectionChange,
    canSelect,
    showIndex = true,
    emptyText,
    caption,
    onRowClick,
  } = props;
  const rows = data ?? (EMPTY as T[]);
  const phone = usePhoneWidth();
  const firstIndex = urlState ? (urlState.page - 1) * urlState.pageSize : 0;

  const rowSelection = useMemo<RowSelectionState>(
    () => Object.fromEntries(selectedIds.map((id) => [id, true])),
    [selectedIds],
  );

  const allColumns = useMemo(() => {
    const helper = createColumnHelper<DataTableFeatures, T>();
    const extra: DataTableColumn<T>[] = [];
    if (selectable) {
      extra.push(
        helper.display({
          id: SELECT_COLUMN,
          meta: { width: 40, align: 'center' },
          header: ({ table }) => (
            <Checkbox
              aria-label={t('table.selectAll')}
              checked={table.getIsAllRowsSelected()}
              indeterminate={table.getIsSomeRowsSelected() && !table.getIsAllRowsSelected()}
              onChange={table.getToggleAllRowsSelectedHandler()}
            />
          ),
          cell: ({ row }) => (
            <Checkbox
              aria-label={t('table.selectRow', { index: row.index + 1 })}
              checked={row.getIsSelected()}
              disabled={!row.getCanSelect()}
              onChange={row.getToggleSelectedHandler()}
              onClick={(e) => e.stopPropagation()}
            />
          ),
        }),
      );
    }
    if (showIndex) {
      extra.push(
        helper.display({
          id: INDEX_COLUMN,
          meta: { width: 60, align: 'center' },
          header: () => t('table.index'),
          cell: ({ row }) => firstIndex + row.index + 1,
        }),
      );
    }
    return [...extra, ...columns];
  }, [columns, selectable, showIndex, t, firstIndex]);

  const table = useTable({
    features: dataTableFeatures,
    columns: allColumns,
    data: rows,
    getRowId: (row: T) => getRowId(row),
    state: { rowSelection },
    enableRowSelection: canSelect ? (row) => canSelect(row.original) : true,
    onRowSelectionChange: (updater: Updater<RowSelectionState>) => {
      const next = typeof updater === 'function' ? updater(rowSelection) : updater;
      onSelectionChange?.(Object.keys(next).filter((id) => next[id]));
    },
  });

  // The first column of the caller's (the record's name, e.g. its tracking number) stays in
  // view while a narrow screen scrolls the table sideways (styles.css, `data-sticky`).
  const stickyIndex = allColumns.length - columns.length;
  const headerGroups = table.getHeaderGroups();
  const bodyRows = table.getRowModel().rows;

  return (
    <Stack gap="sm">
      <Box pos="relative" aria-busy={phone ? loading : undefined}>
        <LoadingOverlay visible={Boolean(loading)} zIndex={10} overlayProps={{ blur: 1 }} />
        {phone ? (
          <RowCards
            rows={bodyRows}
            caption={caption}
            emptyText={emptyText ?? t('table.empty')}
            onRowClick={onRowClick}
          />
        ) : (
          <ScrollArea type="auto">
            <Table
              striped
              highlightOnHover
              withTableBorder
              verticalSpacing="xs"
              aria-label={caption}
              aria-busy={loading}
            >
              <Table.Thead>
                {headerGroups.map((group) => (
                  <Table.Tr key={group.id}>
                    {group.headers.map((header, i) => {
                      const meta = header.column.columnDef.meta;
                      const field = urlState ? meta?.sortField : undefined;
                      const active =
                        field && urlState?.sort?.field === field ? urlState.sort.dir : null;
                      const content = header.isPlaceholder ? null : (
                        <table.FlexRender header={header} />
                      );
                      return (
                        <Table.Th
                          key={header.id}
                          data-sticky={i === stickyIndex || undefined}
                          w={meta?.width}
                          ta={meta?.align}
                          aria-sort={
                            active === 'asc'
                              ? 'ascending'
                              : active === 'desc'
                                ? 'descending'
                                : undefined
                          }
                        >
                          {field && urlState ? (
                            <UnstyledButton
                              onClick={() => urlState.setSort(nextSort(urlState.sort, field))}
                              aria-label={t('table.sortBy', {
                                column:
                                  typeof header.column.columnDef.header === 'string'
                                    ? header.column.columnDef.header
                                    : field,
                              })}
                            >
                              <Group gap={4} wrap="nowrap">
                                <Text fw={700} size="sm">
                                  {content}
                                </Text>
                                {active === 'asc' ? (
                                  <IconArrowUp size={14} />
                                ) : active === 'desc' ? (
                                  <IconArrowDown size={14} />
                                ) : (
                                  <IconArrowsSort size={14} opacity={0.5} />
                                )}
                              </Group>
                            </UnstyledButton>
                          ) : (
                            content
                          )}
                        </Table.Th>
                      );
                    })}
                  </Table.Tr>
                ))}
              </Table.Thead>
              <Table.Tbody>
                {bodyRows.length === 0 ? (
                  <Table.Tr>
                    <Table.Td colSpan={allColumns.length}>
                      <Text ta="center" c="dimmed" py="lg">
                        {emptyText ?? t('table.empty')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ) : (
                  bodyRows.map((row) => (
                    <Table.Tr
                      key={row.id}
                      bg={row.getIsSelected() ? 'var(--mantine-primary-color-light)' : undefined}
                      onClick={onRowClick ? () => onRowClick(row.original) : undefined}
                      style={onRowClick ? { cursor: 'pointer' } : undefined}
                    >
                      {row.getAllCells().map((cell, i) => (
                        <Table.Td
                          key={cell.id}
                          data-sticky={i === stickyIndex || undefined}
                          ta={cell.column.columnDef.meta?.align}
                        >
                          <table.FlexRender cell={cell} />
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))
                )}
              </Table.Tbody>
            </Table>
          </ScrollArea>
        )}
      </Box>
      {urlState && (
        <Pager
          page={urlState.page}
          pageSize={urlState.pageSize}
          total={total}
          onPageChange={urlState.setPage}
          onPageSizeChange={urlState.setPageSize}
        />
      )}
    </Stack>
  );
}
