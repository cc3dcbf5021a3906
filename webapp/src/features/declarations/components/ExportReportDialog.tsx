// The admin export-report dialog (spec 5 "Export", 7 "Export response", 9): declaration
// type (default D), customer, port and SLIC selects (GET /api/v1/admin/customers per type,
// GET /api/v1/port/slic-info; a text input only when a list cannot be loaded), status, shipment type, the date range with the 365-day / 180-day / no-future
// rules, sort 1-4; placeholders become empty values; the xlsx is saved through the shared
// download helper. Any error is shown with its message and a warning icon; success closes.
import { useMemo } from 'react';
import { SegmentedControl, Select, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { ExportDialog, type ExportFieldsProps } from '@/components/ExportRange/ExportDialog';
import { useDeclT } from '@/shared/declarations/i18n';
import { useAdminCustomers } from '@/shared/declarations/api/getAdminCustomers';
import { usePortSlicInfo } from '@/shared/platform/api/getPortSlicInfo';
import {
  portOptions as toPortOptions,
  slicOptions as toSlicOptions,
} from '@/shared/platform/model/exportLists';
import { useExportDeclarations } from '@/shared/declarations/api/exportDeclarations';
import {
  ALL,
  initialExportDraft,
  toExportForm,
  type ExportDraft,
  type ExportInitial,
} from '@/shared/declarations/model/exportForm';
import { STATUS_FILTER_VALUES } from '@/shared/declarations/model/listFilters';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

export interface ExportReportDialogProps {
  opened: boolean;
  onClose: () => void;
  /** Prefill from a list's filters (optional). */
  initial?: ExportInitial;
}

export default function ExportReportDialog({ opened, onClose, initial }: ExportReportDialogProps) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const exporter = useExportDeclarations();
  return (
    <ExportDialog
      opened={opened}
      onClose={onClose}
      title={tg('export.title')}
      initial={() => initialExportDraft(initial)}
      fields={ReportFields}
      send={(draft) => exporter.mutateAsync(toExportForm(draft))}
      pending={exporter.isPending}
      texts={{
        cancel: t('common.cancel'),
        submit: t('exportDialog.submit'),
        failed: t('exportDialog.failed'),
      }}
    />
  );
}

function ReportFields({ draft, setDraft, set, range }: ExportFieldsProps<ExportDraft>) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const typeName = useDeclarationTypeName();
  const customers = useAdminCustomers(draft.declarationType);
  const ports = usePortSlicInfo();

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

  const freeNote = t('common.freeTextNote');

  return (
    <>
      <div>
        <Text size="sm" fw={500} mb={4} id="export-type-label">
          {t('exportDialog.declarationType')}
        </Text>
        <SegmentedControl
          aria-labelledby="export-type-label"
          fullWidth
          value={draft.declarationType}
          onChange={(v) => set('declarationType', v)}
          data={['B', 'C', 'D'].map((c) => ({ value: c, label: typeName(c) }))}
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
    </>
  );
}
