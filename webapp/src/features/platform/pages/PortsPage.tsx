// /platform-mgt/port: ports with their declaration SLIC and audit fields; each row expands
// to its facility SLICs. Ports need ports:management, facilities ports:add-slic.
import { Fragment, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  LoadingOverlay,
  Box,
  ScrollArea,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Pager, useTableSearchParams } from '@/components/DataTable';
import { Permission } from '@/components/Permission';
import { showMessage } from '@/lib/message';
import { useDeletePort } from '@/features/platform/api/deletePort';
import { usePorts } from '@/features/platform/api/getPorts';
import { useRemoveSlic } from '@/features/platform/api/removeSlic';
import type { PortRecord, SlicInfo } from '@/shared/platform/api/types';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { FormError } from '@/shared/platform/components/FormError';
import { KeywordSearch } from '@/shared/platform/components/KeywordSearch';
import { formatTime } from '@/lib/dates';
import { errorText } from '@/shared/platform/model/errors';
import { PortDialog } from '@/features/platform/ports/PortDialog';
import { SlicDialog } from '@/features/platform/ports/SlicDialog';
import { PageLayout } from '@/components/PageLayout';

type Dialog =
  | { kind: 'port'; port: PortRecord | null }
  | { kind: 'deletePort'; port: PortRecord }
  | { kind: 'slic'; port: PortRecord; slic: SlicInfo | null }
  | { kind: 'removeSlic'; port: PortRecord; slic: SlicInfo }
  | null;

function Audit({ by, at }: { by?: string | null; at?: string | null }) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatTime(at)}
      </Text>
      {by && (
        <Text size="xs" c="dimmed">
          {by}
        </Text>
      )}
    </Stack>
  );
}

export default function PortsPage() {
  const { t } = useTranslation();
  const url = useTableSearchParams({ filterKeys: ['keyword'] as const });
  const query = usePorts(url.apiParams);
  const deletePort = useDeletePort();
  const removeSlic = useRemoveSlic();
  const [open, setOpen] = useState<Record<string, boolean>>({});
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const records = query.data?.records ?? [];

  return (
    <PageLayout
      title={t('platform.ports.title')}
      actions={
        <Permission code="ports:management">
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setDialog({ kind: 'port', port: null })}
          >
            {t('platform.ports.add')}
          </Button>
        </Permission>
      }
      filters={
        <KeywordSearch
          key={url.filters.keyword}
          initial={url.filters.keyword}
          placeholder={t('platform.ports.keywordPlaceholder')}
          onSearch={(keyword) => url.setFilters({ keyword })}
          onReset={url.resetFilters}
        />
      }
    >
      {query.isError && <FormError message={errorText(query.error)} />}
      <Box pos="relative">
        <LoadingOverlay visible={query.isFetching} zIndex={5} />
        <ScrollArea>
          <Table striped highlightOnHover withTableBorder aria-label={t('platform.ports.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40} />
                <Table.Th>{t('platform.ports.col.portCode')}</Table.Th>
                <Table.Th>{t('platform.ports.col.portName')}</Table.Th>
                <Table.Th>{t('platform.ports.col.portNameEn')}</Table.Th>
                <Table.Th>{t('platform.ports.col.declarationSlic')}</Table.Th>
                <Table.Th>{t('platform.ports.col.facilities')}</Table.Th>
                <Table.Th>{t('platform.common.createdAt')}</Table.Th>
                <Table.Th>{t('platform.common.updatedAt')}</Table.Th>
                <Table.Th>{t('platform.common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={9}>
                    <Text ta="center" c="dimmed" py="md">
                      {t('table.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
              {records.map((port) => {
                const expanded = !!open[port.id];
                const slics = (port.slicInfoList ?? []).filter((s) => !s.deleted);
                return (
                  <Fragment key={port.id}>
                    <Table.Tr data-port={port.portCode}>
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          size="sm"
                          aria-expanded={expanded}
                          aria-label={`${t(expanded ? 'platform.ports.collapse' : 'platform.ports.expand')} ${port.portCode}`}
                          onClick={() => setOpen((o) => ({ ...o, [port.id]: !expanded }))}
                        >
                          {expanded ? (
                            <IconChevronDown size={16} />
                          ) : (
                            <IconChevronRight size={16} />
                          )}
                        </ActionIcon>
                      </Table.Td>
                      <Table.Td fw={500}>{port.portCode}</Table.Td>
                      <Table.Td>{port.portName}</Table.Td>
                      <Table.Td>{port.portNameEn}</Table.Td>
                      <Table.Td>{port.declarationSlic}</Table.Td>
                      <Table.Td>
                        <Badge variant="light" size="sm">
                          {slics.length}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Audit by={port.createBy} at={port.createTime} />
                      </Table.Td>
                      <Table.Td>
                        <Audit by={port.updateBy} at={port.updateTime} />
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Permission code="ports:management">
                            <Button
                              size="compact-xs"
                              variant="subtle"
                              onClick={() => setDialog({ kind: 'port', port })}
                            >
                              {t('platform.common.edit')}
                            </Button>
                          </Permission>
                          <Permission code="ports:add-slic">
                            <Button
                              size="compact-xs"
                              variant="subtle"
                              onClick={() => {
                                setOpen((o) => ({ ...o, [port.id]: true }));
                                setDialog({ kind: 'slic', port, slic: null });
                              }}
                            >
                              {t('platform.ports.slic.add')}
                            </Button>
                          </Permission>
                          <Permission code="ports:management">
                            <Button
                              size="compact-xs"
                              variant="subtle"
                              color="red"
                              onClick={() => setDialog({ kind: 'deletePort', port })}
                            >
                              {t('platform.common.delete')}
                            </Button>
                          </Permission>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                    {expanded && (
                      <Table.Tr>
                        <Table.Td />
                        <Table.Td colSpan={8}>
                          <SlicTable
                            slics={slics}
                            onEdit={(slic) => setDialog({ kind: 'slic', port, slic })}
                            onRemove={(slic) => setDialog({ kind: 'removeSlic', port, slic })}
                          />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      </Box>
      <Pager
        page={url.page}
        pageSize={url.pageSize}
        total={query.data?.total ?? 0}
        onPageChange={url.setPage}
        onPageSizeChange={url.setPageSize}
      />
      {dialog?.kind === 'port' && <PortDialog port={dialog.port} onClose={close} />}
      {dialog?.kind === 'slic' && (
        <SlicDialog port={dialog.port} slic={dialog.slic} onClose={close} />
      )}
      {dialog?.kind === 'deletePort' && (
        <ConfirmDialog
          title={t('platform.ports.confirmDeleteTitle')}
          message={t('platform.ports.confirmDelete', {
            name: dialog.port.portName,
            code: dialog.port.portCode,
          })}
          danger
          onConfirm={async () => {
            await deletePort.mutateAsync({
              id: dialog.port.id,
              version: dialog.port.version,
            });
            showMessage('success', t('platform.ports.done.deleted'));
          }}
          onClose={close}
        />
      )}
      {dialog?.kind === 'removeSlic' && (
        <ConfirmDialog
          title={t('platform.ports.slic.removeTitle')}
          message={t('platform.ports.slic.remove', {
            name: dialog.slic.upsFacilityName,
            slic: dialog.slic.upsFacilitySlic,
          })}
          danger
          onConfirm={async () => {
            await removeSlic.mutateAsync({
              portId: dialog.port.id,
              slicId: dialog.slic.id,
              version: dialog.port.version,
            });
            showMessage('success', t('platform.ports.done.slicRemoved'));
          }}
          onClose={close}
        />
      )}
    </PageLayout>
  );
}

function SlicTable({
  slics,
  onEdit,
  onRemove,
}: {
  slics: SlicInfo[];
  onEdit: (slic: SlicInfo) => void;
  onRemove: (slic: SlicInfo) => void;
}) {
  const { t } = useTranslation();
  if (slics.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('platform.ports.slic.none')}
      </Text>
    );
  return (
    <Table withTableBorder aria-label={t('platform.ports.slic.title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('platform.ports.slic.name')}</Table.Th>
          <Table.Th>{t('platform.ports.slic.code')}</Table.Th>
          <Table.Th>{t('platform.common.createdAt')}</Table.Th>
          <Table.Th>{t('platform.common.updatedAt')}</Table.Th>
          <Table.Th>{t('platform.common.actions')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {slics.map((s) => (
          <Table.Tr key={s.id} data-slic={s.upsFacilitySlic}>
            <Table.Td>{s.upsFacilityName}</Table.Td>
            <Table.Td>{s.upsFacilitySlic}</Table.Td>
            <Table.Td>
              <Audit by={s.createBy} at={s.createTime} />
            </Table.Td>
            <Table.Td>
              <Audit by={s.updateBy} at={s.updateTime} />
            </Table.Td>
            <Table.Td>
              <Permission code="ports:add-slic">
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="subtle" onClick={() => onEdit(s)}>
                    {t('platform.common.edit')}
                  </Button>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    color="red"
                    onClick={() => onRemove(s)}
                  >
                    {t('platform.common.delete')}
                  </Button>
                </Group>
              </Permission>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
