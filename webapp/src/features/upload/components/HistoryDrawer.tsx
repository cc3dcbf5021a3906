// The upload history drawer (spec 2.6), titled batch creation records, from the right:
// search by file name (on enter or clear), date range, declaration type, template format,
// read state; items with every field and the unread marker; 10 a page, 5 page buttons. The
// details link opens the detail view (breadcrumb back, table 10 a page, back and export).
import { useState } from 'react';
import {
  Anchor,
  Badge,
  Breadcrumbs,
  Button,
  Card,
  Drawer,
  Group,
  Indicator,
  Pagination,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { DatePickerInput, type DatesRangeValue } from '@mantine/dates';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useConfirmUpload } from '../api/confirmUpload';
import { downloadErrorFile } from '../api/downloads';
import { useUploadDetail } from '../api/getUploadDetail';
import { useUploadHistory } from '../api/getUploadHistory';
import { HISTORY_PAGE_SIZE, detailItems, detailsDisabled } from '../model/polling';
import { DECLARATION_TYPES, type UploadRecord } from '../model/types';
import { useUploadStore } from '../model/uploadStore';
import { ItemsTable } from './ItemsTable';
import { formatDateTime } from '@/lib/dates';
import { usePhoneWidth } from '@/components/usePhoneWidth';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

function Detail({ record, onBack }: { record: UploadRecord; onBack: () => void }) {
  const { t } = useTranslation();
  const typeName = useDeclarationTypeName();
  const [page, setPage] = useState(1);
  const { data } = useUploadDetail(record.id, { pageNo: page, pageSize: HISTORY_PAGE_SIZE });
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component="button" type="button" onClick={onBack}>
          {t('upload.historyTitle')}
        </Anchor>
        <Text size="sm">{t('upload.detailTitle')}</Text>
      </Breadcrumbs>
      <Group gap="xs">
        <Text fw={600}>{record.fileOriginName}</Text>
        <Badge variant="light" style={{ textTransform: 'none' }}>
          {typeName(record.type)}
        </Badge>
      </Group>
      <ItemsTable
        items={detailItems(data)}
        isRowData={record.isRowData}
        page={page}
        pageSize={HISTORY_PAGE_SIZE}
        total={data?.total ?? 0}
        onPage={setPage}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onBack}>
          {t('upload.back')}
        </Button>
        <Button onClick={() => void downloadErrorFile(record.id)}>{t('upload.export')}</Button>
      </Group>
    </Stack>
  );
}

function Item({ record, onDetails }: { record: UploadRecord; onDetails: () => void }) {
  const { t } = useTranslation();
  const typeName = useDeclarationTypeName();
  return (
    <Indicator disabled={record.confirm} color="red" size={8} offset={6} label="">
      <Card withBorder padding="sm">
        <Stack gap={2}>
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} size="sm" truncate>
              {record.fileOriginName}
            </Text>
            {!record.confirm && (
              <Badge color="red" size="xs">
                {t('upload.unread')}
              </Badge>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {formatDateTime(record.createTime)} · {typeName(record.type)} ·{' '}
            {record.isRowData ? t('upload.formTable') : t('upload.formDraft')} ·{' '}
            {record.isFixed ? t('upload.fixed') : t('upload.custom')}
          </Text>
          <Text size="sm">
            {record.status === '3'
              ? t('upload.statusProcessing')
              : record.status === '0'
                ? t('upload.statusFailed')
                : t('upload.counts', {
                    added: record.success,
                    drafts: record.ticketSuccess ?? 0,
                    unit: t(record.isRowData ? 'upload.unitRows' : 'upload.unitFiles'),
                    repeat: record.repeat,
                    abnormal: record.abnormal,
                  })}
          </Text>
          <Group justify="flex-end">
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={detailsDisabled(record)}
              onClick={onDetails}
            >
              {t('upload.viewDetails')}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Indicator>
  );
}

export function HistoryDrawer() {
  const { t } = useTranslation();
  const typeName = useDeclarationTypeName();
  const open = useUploadStore((s) => s.historyOpen);
  // A phone gets the whole width: the records are cards already.
  const phone = usePhoneWidth();
  const setOpen = useUploadStore((s) => s.setHistoryOpen);
  const confirm = useConfirmUpload();
  const [page, setPage] = useState(1);
  const [nameInput, setNameInput] = useState('');
  const [fileName, setFileName] = useState('');
  const [range, setRange] = useState<DatesRangeValue>([null, null]);
  const [type, setType] = useState<string | null>(null);
  const [isFix, setIsFix] = useState<string | null>(null);
  const [read, setRead] = useState('0');
  const [detail, setDetail] = useState<UploadRecord | null>(null);
  const day = (d: unknown) => (d ? dayjs(d as string).format('YYYYMMDD') : undefined);
  const params = {
    pageNo: page,
    pageSize: HISTORY_PAGE_SIZE,
    confirm: read === '1' ? true : read === '2' ? false : '',
    beginUploadDate: day(range[0]),
    endUploadDate: day(range[1]),
    isFix: isFix ?? undefined,
    declarationFormType: type ?? undefined,
    fileName: fileName || undefined,
  };
  const { data } = useUploadHistory(params, open);
  const openDetails = (r: UploadRecord) => {
    setDetail(r);
    if (!r.confirm) confirm.mutate(r.id);
  };
  return (
    <Drawer
      opened={open}
      onClose={() => setOpen(false)}
      position="right"
      size={phone ? '100%' : 'lg'}
      title={t('upload.historyTitle')}
    >
      {detail ? (
        <Detail record={detail} onBack={() => setDetail(null)} />
      ) : (
        <Stack>
          <TextInput
            placeholder={t('upload.searchName')}
            value={nameInput}
            onChange={(e) => {
              setNameInput(e.currentTarget.value);
              if (e.currentTarget.value === '') {
                setFileName('');
                setPage(1);
              }
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                setFileName(nameInput.trim());
                setPage(1);
              }
            }}
          />
          <DatePickerInput
            type="range"
            clearable
            valueFormat="YYYYMMDD"
            placeholder={t('upload.dateRange')}
            value={range}
            onChange={(v) => {
              setRange(v);
              setPage(1);
            }}
          />
          <Group grow>
            <Select
              clearable
              placeholder={t('upload.declarationType')}
              data={DECLARATION_TYPES.map((v) => ({
                value: v,
                label: typeName(v, { code: true }),
              }))}
              value={type}
              onChange={(v) => {
                setType(v);
                setPage(1);
              }}
            />
            <Select
              clearable
              placeholder={t('upload.templateFormat')}
              data={[
                { value: '1', label: t('upload.fixed') },
                { value: '2', label: t('upload.custom') },
              ]}
              value={isFix}
              onChange={(v) => {
                setIsFix(v);
                setPage(1);
              }}
            />
          </Group>
          <SegmentedControl
            value={read}
            onChange={(v) => {
              setRead(v);
              setPage(1);
            }}
            data={[
              { value: '0', label: t('upload.readAll') },
              { value: '1', label: t('upload.readRead') },
              { value: '2', label: t('upload.readUnread') },
            ]}
          />
          {(data?.records ?? []).map((r) => (
            <Item key={r.id} record={r} onDetails={() => openDetails(r)} />
          ))}
          {data && data.records.length === 0 && (
            <Text c="dimmed" ta="center" size="sm">
              {t('upload.noData')}
            </Text>
          )}
          {data && data.total > HISTORY_PAGE_SIZE && (
            <Pagination
              total={Math.ceil(data.total / HISTORY_PAGE_SIZE)}
              value={page}
              onChange={setPage}
              siblings={2}
              boundaries={0}
            />
          )}
        </Stack>
      )}
    </Drawer>
  );
}
