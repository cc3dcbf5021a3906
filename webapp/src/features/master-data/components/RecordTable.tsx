// The list of a master data page: its columns, the customer column for staff, the audit
// column and edit/delete actions; paging below.
import type { ReactNode } from 'react';
import { Box, Button, Group, LoadingOverlay, ScrollArea, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Pager } from '@/components/DataTable';
import { formatTime } from '@/lib/dates';

export interface Column<T> {
  key: string;
  label: string;
  render: (row: T) => ReactNode;
}

export interface RecordTableProps<T extends { id: string }> {
  label: string;
  rows: T[];
  columns: Column<T>[];
  staff: boolean;
  loading: boolean;
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  onPageSizeChange: (size: number) => void;
  onEdit: (row: T) => void;
  onDelete: (row: T) => void;
}

export function RecordTable<
  T extends { id: string; customerName?: string | null; updateTime?: string | null },
>(props: RecordTableProps<T>) {
  const { t } = useTranslation();
  const span = props.columns.length + (props.staff ? 3 : 2);
  return (
    <>
      <Box pos="relative">
        <LoadingOverlay visible={props.loading} zIndex={5} />
        <ScrollArea>
          <Table striped highlightOnHover withTableBorder aria-label={props.label}>
            <Table.Thead>
              <Table.Tr>
                {props.staff && <Table.Th>{t('masterData.common.customer')}</Table.Th>}
                {props.columns.map((c) => (
                  <Table.Th key={c.key}>{c.label}</Table.Th>
                ))}
                <Table.Th>{t('masterData.common.updatedAt')}</Table.Th>
                <Table.Th>{t('masterData.common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {props.rows.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={span}>
                    <Text ta="center" c="dimmed" py="md">
                      {t('table.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {props.rows.map((row) => (
                <Table.Tr key={row.id}>
                  {props.staff && <Table.Td>{row.customerName}</Table.Td>}
                  {props.columns.map((c) => (
                    <Table.Td key={c.key}>{c.render(row)}</Table.Td>
                  ))}
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatTime(row.updateTime)}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button size="compact-xs" variant="subtle" onClick={() => props.onEdit(row)}>
                        {t('masterData.common.edit')}
                      </Button>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        onClick={() => props.onDelete(row)}
                      >
                        {t('masterData.common.delete')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Box>
      <Pager
        page={props.page}
        pageSize={props.pageSize}
        total={props.total}
        onPageChange={props.onPageChange}
        onPageSizeChange={props.onPageSizeChange}
      />
    </>
  );
}
