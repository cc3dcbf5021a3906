// The result dialog (spec 2.6): 800 px, not closed by an outside click; file name, type,
// data form and counts; two tabs (abnormal data, duplicate upload data); cancel and export.
// Opening it marks the record read.
import { useEffect } from 'react';
import { Badge, Button, Group, Modal, Stack, Tabs, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useConfirmUpload } from '../api/confirmUpload';
import { downloadErrorFile } from '../api/downloads';
import { useUploadDetail } from '../api/getUploadDetail';
import { DIALOG_PAGE_SIZE, detailItems } from '../model/polling';
import { useUploadStore } from '../model/uploadStore';
import { ItemsTable } from './ItemsTable';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

export function ResultDialog() {
  const { t } = useTranslation();
  const typeName = useDeclarationTypeName();
  const id = useUploadStore((s) => s.resultId);
  const openResult = useUploadStore((s) => s.openResult);
  const { data } = useUploadDetail(id, { pageNo: 1, pageSize: DIALOG_PAGE_SIZE });
  const confirm = useConfirmUpload();
  const confirmed = data?.confirm;

  useEffect(() => {
    if (id && confirmed === false) confirm.mutate(id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per opened record
  }, [id, confirmed]);

  const items = detailItems(data);
  // Notes (an HS code filled from the product library) are not problems.
  const abnormal = items.filter((i) => !i.isRepeat && !i.note);
  const repeated = items.filter((i) => i.isRepeat);
  const isRowData = data?.isRowData ?? true;
  return (
    <Modal
      opened={!!id}
      onClose={() => openResult(null)}
      size={800}
      closeOnClickOutside={false}
      title={t('upload.resultTitle')}
    >
      {data && (
        <Stack>
          <Group gap="xs">
            <Text fw={600}>{data.fileOriginName}</Text>
            <Badge variant="light" style={{ textTransform: 'none' }}>
              {typeName(data.type)}
            </Badge>
            <Badge variant="outline">
              {isRowData ? t('upload.formTable') : t('upload.formDraft')}
            </Badge>
          </Group>
          <Text size="sm">
            {t('upload.counts', {
              added: data.success,
              drafts: data.ticketSuccess ?? 0,
              unit: t(data.isRowData ? 'upload.unitRows' : 'upload.unitFiles'),
              repeat: data.repeat,
              abnormal: data.abnormal,
            })}
          </Text>
          <Tabs defaultValue="abnormal">
            <Tabs.List>
              <Tabs.Tab value="abnormal">
                {t('upload.tabAbnormal', { n: abnormal.length })}
              </Tabs.Tab>
              <Tabs.Tab value="repeat">{t('upload.tabRepeat', { n: repeated.length })}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="abnormal" pt="xs">
              <ItemsTable
                items={abnormal}
                isRowData={isRowData}
                page={1}
                pageSize={DIALOG_PAGE_SIZE}
                total={abnormal.length}
              />
            </Tabs.Panel>
            <Tabs.Panel value="repeat" pt="xs">
              <ItemsTable
                items={repeated}
                isRowData={isRowData}
                page={1}
                pageSize={DIALOG_PAGE_SIZE}
                total={repeated.length}
              />
            </Tabs.Panel>
          </Tabs>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => openResult(null)}>
              {t('common.cancel')}
            </Button>
            <Button onClick={() => void downloadErrorFile(data.id)}>{t('upload.export')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
