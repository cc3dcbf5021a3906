// The admin export-report dialog (spec 5 "Export", 7 "Export response", 9): declaration
// type (default D), customer, port and SLIC selects (GET /api/v1/admin/customers per type,
// GET /api/v1/port/slic-info; a text input only when a list cannot be loaded), status, shipment type, the date range with the 365-day / 180-day / no-future
// rules, sort 1-4; placeholders become empty values; the xlsx is saved through the shared
// download helper. Any error is shown with its message and a warning icon; success closes.
import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconAlertTriangle, IconFileExport } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useExportRange } from '@/components/ExportRange/useExportRange';
import { ApiError } from '@/lib/request';
import { useDeclT } from '../i18n';
import { useAdminCustomers } from '../api/getAdminCustomers';
import { usePortSlicInfo } from '@/features/platform/api/getPortSlicInfo';
import {
  portOptions as toPortOptions,
  slicOptions as toSlicOptions,
} from '@/features/platform/model/exportLists';
import { useExportDeclarations } from '../api/exportDeclarations';
import {
  ALL,
  initialExportDraft,
  toExportForm,
  type ExportDraft,
  type ExportInitial,
} from '../model/exportForm';
import { STATUS_FILTER_VALUES } from '../model/listFilters';

export interface ExportReportDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Prefill from a list's filters (optional). */
  initial?: ExportInitial;
}

export default function ExportReportDialog({ opened, onClose, initial }: ExportReportDialogProps) {
  const { t: tg } = useTranslation();
  // The form is the modal's content: it mounts (fresh state) each time the dialog opens.
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={tg('export.title')}
      size={800}
      closeOnClickOutside={false}
    >
      <ExportReportForm onClose={onClose} initial={initial} />
    </Modal>
  );
}

function ExportReportForm({ onClose, initial }: { onClose: () => void; initial?: ExportInitial }) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const [draft, setDraft] = useState<ExportDraft>(() => initialExportDraft(initial));
  const range = useExportRange(draft, setDraft);
  const { error, setError } = range;
  /** The last error came from the server (vs. the form's own date rules). */
  const [serverError, setServerError] = useState(false);
  const exporter = useExportDeclarations();
  const customers = useAdminCustomers(draft.declarationType);
  const ports = usePortSlicInfo();

  const set = <K extends keyof ExportDraft>(key: K, value: ExportDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

  // While a list loads its select shows only the placeholder; text only when it failed.
  const customerOptions = useMemo(
    () =>
      customers.isError
        ? null
        : [
            { value: ALL, label: t('exportDialog.allCustomers') },
            ...(customers.data ?? []).map((c) => ({
              value: c.username,
              label: c.companyName ? `${c.username} · ${c.companyName}` : c.username,
            })),
          ],
    [customers.data, customers.isError, t],
  );
  const portOptions = useMemo(
    () =>
      ports.isError
        ? null
        : [{ value: ALL, label: t('exportDialog.allPorts') }, ...toPortOptions(ports.data ?? [])],
    [ports.data, ports.isError, t],
  );
  const slicOptions = useMemo(
    () =>
      ports.isError
        ? null
        : [
            { value: ALL, label: t('exportDialog.allSlic') },
            ...toSlicOptions(ports.data ?? [], draft.port === ALL ? null : draft.port),
          ],
    [ports.data, ports.isError, draft.port, t],
  );

  const submit = async () => {
    setServerError(false);
    if (!range.check()) return;
    try {
      await exporter.mutateAsync(toExportForm(draft));
      onClose();
    } catch (e) {
      setServerError(true);
      setError(e instanceof ApiError || e instanceof Error ? e.message : String(e));
    }
  };

  const freeNote = t('common.freeTextNote');

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <div>
          <Text size="sm" fw={500} mb={4} id="export-type-label">
            {t('exportDialog.declarationType')}
          </Text>
          <SegmentedControl
            aria-labelledby="export-type-label"
            fullWidth
            value={draft.declarationType}
            onChange={(v) => set('declarationType', v)}
            data={['B', 'C', 'D'].map((c) => ({ value: c, label: `${c}` }))}
          />
        </div>
        <div>
          <Text size="sm" fw={500} mb={4} id="export-shipment-label">
            {t('exportDialog.shipmentType')}
          </Text>
          <SegmentedControl
            aria-labelledby="export-shipment-label"
            fullWidth
            value={draft.shipmentType}
            onChange={(v) => set('shipmentType', v)}
            data={['-1', '0', '1'].map((v) => ({
              value: v,
              label: t(`exportDialog.shipment.${v}`),
            }))}
          />
        </div>
        {customerOptions ? (
          <Select
            label={t('exportDialog.customer')}
            data={customerOptions}
            value={draft.username}
            onChange={(v) => set('username', v ?? ALL)}
            searchable
            allowDeselect={false}
          />
        ) : (
          <TextInput
            label={t('exportDialog.customer')}
            placeholder={t('exportDialog.customerText')}
            description={customers.isError ? freeNote : undefined}
            value={draft.username === ALL ? '' : draft.username}
            onChange={(e) => set('username', e.currentTarget.value || ALL)}
          />
        )}
        <Select
          label={t('exportDialog.status')}
          data={STATUS_FILTER_VALUES.map((s) => ({
            value: s,
            label: tg(`declarationStatus.${s}`),
          }))}
          value={draft.status}
          onChange={(v) => set('status', v ?? '-1')}
          allowDeselect={false}
        />
        {portOptions ? (
          <Select
            label={t('exportDialog.port')}
            data={portOptions}
            value={draft.port}
            onChange={(v) => setDraft((d) => ({ ...d, port: v ?? ALL, slic: ALL }))}
            searchable
            allowDeselect={false}
          />
        ) : (
          <TextInput
            label={t('exportDialog.port')}
            placeholder={t('exportDialog.portText')}
            description={ports.isError ? freeNote : undefined}
            value={draft.port === ALL ? '' : draft.port}
            onChange={(e) => set('port', e.currentTarget.value || ALL)}
          />
        )}
        {slicOptions ? (
          <Select
            label={t('exportDialog.slic')}
            data={slicOptions}
            value={draft.slic}
            onChange={(v) => set('slic', v ?? ALL)}
            searchable
            allowDeselect={false}
          />
        ) : (
          <TextInput
            label={t('exportDialog.slic')}
            placeholder={t('exportDialog.slicText')}
            description={ports.isError ? freeNote : undefined}
            value={draft.slic === ALL ? '' : draft.slic}
            onChange={(e) => set('slic', e.currentTarget.value || ALL)}
          />
        )}
        <DatePickerInput
          type="range"
          label={t('exportDialog.dateRange')}
          placeholder={t('exportDialog.datePlaceholder')}
          description={t('exportDialog.rangeNote')}
          required
          {...range.pickerProps}
        />
        <Select
          label={t('exportDialog.sort')}
          placeholder={t('exportDialog.sortNone')}
          data={['1', '2', '3', '4'].map((s) => ({
            value: s,
            label: `${s} ${t(`exportDialog.sortOption.${s}`)}`,
          }))}
          value={draft.sort || null}
          onChange={(v) => set('sort', v ?? '')}
          clearable
        />
      </SimpleGrid>

      {error && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={20} />}
          title={serverError ? t('exportDialog.failed') : undefined}
          role="alert"
        >
          {error}
        </Alert>
      )}

      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('common.cancel')}
        </Button>
        <Button
          leftSection={<IconFileExport size={16} />}
          loading={exporter.isPending}
          onClick={() => void submit()}
        >
          {t('exportDialog.submit')}
        </Button>
      </Group>
    </Stack>
  );
}
