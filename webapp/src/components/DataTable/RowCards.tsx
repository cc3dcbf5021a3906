// A table's rows as a stack of cards, for a phone: the same row model and column
// definitions DataTable renders as a table, so a list has one set of columns for both
// widths. Each card is headed by the title column (the record's name, e.g. its tracking
// number, with the selection box beside it), then one labelled line per column the card
// keeps (`meta.card`), then the row's actions at its foot.
import type { ReactNode } from 'react';
import { Box, Card, Group, Stack, Text } from '@mantine/core';
import { FlexRender, type Row } from '@tanstack/react-table';
import type { DataTableFeatures } from './columns';
import { cardPlaces, type AnyCell } from './cardPlaces';

export interface RowCardsProps<T extends object> {
  rows: Row<DataTableFeatures, T>[];
  /** Accessible name of the list (the table's caption). */
  caption?: string;
  emptyText: string;
  onRowClick?: (row: T) => void;
}

function label<T extends object>(cell: AnyCell<T>): ReactNode {
  const header = cell.column.columnDef.header;
  return typeof header === 'string' ? header : null;
}

export function RowCards<T extends object>({
  rows,
  caption,
  emptyText,
  onRowClick,
}: RowCardsProps<T>) {
  if (rows.length === 0) {
    return (
      <Text ta="center" c="dimmed" py="lg" data-card-list="empty">
        {emptyText}
      </Text>
    );
  }
  return (
    <Stack gap="xs" role="list" aria-label={caption} data-card-list>
      {rows.map((row) => {
        const place = cardPlaces(row.getAllCells() as AnyCell<T>[]);
        return (
          <Card
            key={row.id}
            role="listitem"
            withBorder
            padding="sm"
            data-row-id={row.id}
            bg={row.getIsSelected() ? 'var(--mantine-primary-color-light)' : undefined}
            onClick={onRowClick ? () => onRowClick(row.original) : undefined}
            style={onRowClick ? { cursor: 'pointer' } : undefined}
          >
            <Stack gap={6}>
              {(place.select || place.title) && (
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  {place.select && <FlexRender cell={place.select} />}
                  {place.title && (
                    <Box style={{ minWidth: 0, flex: 1 }} data-card-title>
                      <FlexRender cell={place.title} />
                    </Box>
                  )}
                </Group>
              )}
              {place.lines.map((cell) => (
                <Group
                  key={cell.id}
                  gap="xs"
                  wrap="nowrap"
                  align="flex-start"
                  data-card-field={cell.column.id}
                >
                  <Text size="xs" c="dimmed" w={96} style={{ flexShrink: 0 }}>
                    {label(cell)}
                  </Text>
                  <Box style={{ minWidth: 0, flex: 1 }}>
                    <FlexRender cell={cell} />
                  </Box>
                </Group>
              ))}
              {place.actions.length > 0 && (
                <Group
                  justify="flex-end"
                  gap="xs"
                  data-card-actions
                  onClick={(e) => e.stopPropagation()}
                >
                  {place.actions.map((cell) => (
                    <FlexRender key={cell.id} cell={cell} />
                  ))}
                </Group>
              )}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
