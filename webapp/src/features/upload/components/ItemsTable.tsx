// The table of abnormal or repeated rows (generic table of spec 2.6: index column, "no
// data" text, pagination).
import { Pagination, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { UploadItem } from '../model/types';

export function ItemsTable({
  items,
  isRowData,
  page,
  pageSize,
  total,
  onPage,
}: {
  items: UploadItem[];
  isRowData: boolean;
  page: number;
  pageSize: number;
  total: number;
  onPage?: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Table striped withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>{isRowData ? t('upload.row') : t('upload.serial')}</Table.Th>
            <Table.Th>{isRowData ? t('upload.trackingNumber') : t('upload.fileName')}</Table.Th>
            <Table.Th>{t('upload.desc')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text ta="center" c="dimmed" size="sm">
                  {t('upload.noData')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : (
            items.map((item, i) => (
              <Table.Tr key={`${item.row}-${i}`}>
                <Table.Td>{(page - 1) * pageSize + i + 1}</Table.Td>
                <Table.Td>{item.row}</Table.Td>
                <Table.Td>{isRowData ? item.trackingNumber : item.fileName}</Table.Td>
                <Table.Td>{item.desc}</Table.Td>
              </Table.Tr>
            ))
          )}
        </Table.Tbody>
      </Table>
      {onPage && total > pageSize && (
        <Pager total={total} pageSize={pageSize} page={page} onPage={onPage} />
      )}
    </Stack>
  );
}

function Pager({
  total,
  pageSize,
  page,
  onPage,
}: {
  total: number;
  pageSize: number;
  page: number;
  onPage: (page: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={4} align="flex-end">
      <Text size="xs" c="dimmed">
        {t('upload.total', { total })}
      </Text>
      <Pagination
        total={Math.ceil(total / pageSize)}
        value={page}
        onChange={onPage}
        siblings={2}
        boundaries={0}
        size="sm"
      />
    </Stack>
  );
}
