// The upload dialog (spec 2.6, "Upload flow"): declaration type, data form, template format,
// the files, a link to the fixed template; a progress bar while the file uploads and while it
// is processed (rows or files done / total). Staff name the customer.
import { useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  FileInput,
  Group,
  Modal,
  Progress,
  SegmentedControl,
  Select,
  Stack,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CustomerPicker } from '@/shared/customers/components/CustomerPicker';
import { useQuery } from '@tanstack/react-query';
import { mappingSchemesQueryOptions } from '@/shared/master-data/api/mappingSchemes';
import { showMessage } from '@/lib/message';
import { ApiError } from '@/lib/request';
import { isCustomer } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { downloadTemplate } from '../api/downloads';
import { uploadFiles } from '../api/uploadFiles';
import { UPLOAD_NOTICE_MS, progress } from '../model/polling';
import { DECLARATION_TYPES } from '../model/types';
import { useUploadStore } from '../model/uploadStore';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

export function UploadDialog() {
  const { t } = useTranslation();
  const typeName = useDeclarationTypeName();
  const role = useSessionStore((s) => s.role);
  const open = useUploadStore((s) => s.uploadOpen);
  const setOpen = useUploadStore((s) => s.setUploadOpen);
  const polling = useUploadStore((s) => s.polling);
  const records = useUploadStore((s) => s.records);
  const [type, setType] = useState<string>('OC');
  const [form, setForm] = useState<'table' | 'draft'>('table');
  const [format, setFormat] = useState<'fixed' | 'custom'>('fixed');
  const [schemeId, setSchemeId] = useState<string | null>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [customerId, setCustomerId] = useState('');
  const [sent, setSent] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const staff = !isCustomer(role);
  const isRowData = form === 'table';
  const isFixed = format === 'fixed';
  // The customer's schemes, asked for only when a custom file is being uploaded.
  const schemes = useQuery({
    ...mappingSchemesQueryOptions({
      pageNo: 1,
      pageSize: 100,
      ...(staff && customerId ? { customerId } : {}),
    }),
    enabled: open && !isFixed,
  });
  const schemeOptions = (schemes.data?.records ?? [])
    .filter((s) => !s.declarationType || s.declarationType === type)
    .map((s) => ({ value: s.id, label: s.name }));

  const submit = async () => {
    setError(null);
    if (files.length === 0) {
      setError(t('upload.chooseFile'));
      return;
    }
    if (staff && !customerId) {
      setError(t('upload.chooseCustomer'));
      return;
    }
    showMessage('info', t('upload.uploading'), UPLOAD_NOTICE_MS);
    setSent(0);
    try {
      const ids = await uploadFiles(
        {
          files,
          declarationType: type,
          isRowData,
          isFixed,
          mappingSchemeId: isFixed ? undefined : (schemeId ?? undefined),
          customerId: staff ? customerId : undefined,
        },
        setSent,
      );
      useUploadStore.getState().start(files.map((f) => f.name).join(', '), ids);
      setFiles([]);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setSent(null);
    }
  };

  const processing = polling ? progress(records) : null;
  return (
    <Modal opened={open} onClose={() => setOpen(false)} title={t('upload.title')} size="lg">
      <Stack>
        <Group grow>
          <Select
            label={t('upload.declarationType')}
            data={DECLARATION_TYPES.map((v) => ({
              value: v,
              label: typeName(v, { detail: true, code: true }),
            }))}
            value={type}
            onChange={(v) => setType(v ?? 'OC')}
            allowDeselect={false}
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t('upload.form')}
            </Text>
            <SegmentedControl
              fullWidth
              value={form}
              onChange={(v) => setForm(v as 'table' | 'draft')}
              data={[
                { value: 'table', label: t('upload.formTable') },
                { value: 'draft', label: t('upload.formDraft') },
              ]}
            />
            <Text size="xs" c="dimmed" mt={4}>
              {form === 'table' ? t('upload.formTableHint') : t('upload.formDraftHint')}
            </Text>
          </div>
        </Group>
        <div>
          <Text size="sm" fw={500} mb={4}>
            {t('upload.templateFormat')}
          </Text>
          <SegmentedControl
            fullWidth
            value={format}
            onChange={(v) => setFormat(v as 'fixed' | 'custom')}
            data={[
              { value: 'fixed', label: t('upload.fixed') },
              { value: 'custom', label: t('upload.custom') },
            ]}
          />
        </div>
        {isFixed ? (
          <Text size="sm">
            {t('upload.templateFixed')} ·{' '}
            <Anchor
              component="button"
              type="button"
              onClick={() => void downloadTemplate(type, isRowData, true)}
            >
              {t('upload.downloadShortTemplate')}
            </Anchor>{' '}
            ·{' '}
            <Anchor
              component="button"
              type="button"
              onClick={() => void downloadTemplate(type, isRowData)}
            >
              {t('upload.downloadTemplate')}
            </Anchor>
            <Text span size="xs" c="dimmed" display="block">
              {t('upload.templateHint')}
            </Text>
          </Text>
        ) : (
          <Select
            label={t('upload.scheme')}
            description={t('upload.schemeHint')}
            placeholder={t('upload.schemeAuto')}
            data={schemeOptions}
            value={schemeId}
            onChange={setSchemeId}
            clearable
            searchable
          />
        )}
        {staff && (
          <CustomerPicker
            label={t('upload.customer')}
            value={customerId}
            onChange={(v) => setCustomerId(v)}
          />
        )}
        <FileInput
          label={t('upload.files')}
          placeholder={t('upload.chooseFile')}
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          multiple={!isRowData}
          value={files}
          onChange={(v) => setFiles(Array.isArray(v) ? v : v ? [v] : [])}
          clearable
        />
        {error && (
          <Alert color="red" title={t('upload.failed')}>
            {error}
          </Alert>
        )}
        {sent !== null && (
          <Stack gap={4}>
            <Text size="sm">{t('upload.sending')}</Text>
            <Progress value={sent} aria-label={t('upload.sending')} />
          </Stack>
        )}
        {processing !== null && (
          <Stack gap={4}>
            <Text size="sm">
              {records.reduce((n, r) => n + (r.total ?? 0), 0) === 0
                ? t('upload.reading')
                : t('upload.processing', {
                    done: records.reduce((n, r) => n + r.done, 0),
                    total: records.reduce((n, r) => n + (r.total ?? 0), 0),
                    unit: t(
                      records[0]?.isRowData === false ? 'upload.unitFiles' : 'upload.unitRows',
                    ),
                  })}
            </Text>
            <Progress value={processing} animated aria-label={t('upload.processingLabel')} />
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void submit()} loading={sent !== null} disabled={polling}>
            {t('upload.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
