// The exception export dialog (spec 3 "Exception export form", 5 "Export", 7, 9): declaration
// type, port, shipment type, status, the date range with the 365-day / 180-day / no-future
// rules, sort 1 / 2 and the format (01 EXCEL, 02 XML, 03 both in a zip). The file is saved
// under the server's name. Errors show in place with a warning icon; success closes.
import { useMemo } from 'react';
import { SegmentedControl, Select, Text, TextInput } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { ExportDialog, type ExportFieldsProps } from '@/components/ExportRange/ExportDialog';
import { usePortSlicInfo } from '@/shared/platform/api/getPortSlicInfo';
import { portOptions as toPortOptions } from '@/shared/platform/model/exportLists';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { STATUS_FILTER_VALUES } from '@/shared/clearance-exceptions/model/statuses';
import { useExportExceptions } from '../api/exportExceptions';
import {
  EXPORT_FORMATS,
  EXPORT_SORTS,
  initialExceptionExport,
  toExceptionExportForm,
  type ExceptionExportDraft,
  type ExportFormat,
} from '../model/exportForm';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

const TYPES = ['OB', 'OC', 'OD', 'IB', 'IC', 'ID'];
/** The "all" choice of a select (Mantine keeps an empty string for "nothing chosen"). */
const ALL = '-1';

export interface ExportExceptionsDialogProps {
  onClose: () => void;
  initial?: Partial<ExceptionExportDraft>;
}

export function ExportExceptionsDialog({ onClose, initial }: ExportExceptionsDialogProps) {
  const { t } = useExcT();
  const exporter = useExportExceptions();
  return (
    <ExportDialog
      onClose={onClose}
      title={t('exportDialog.title')}
      initial={() => initialExceptionExport(initial)}
      fields={ExceptionExportFields}
      send={(draft) => exporter.mutateAsync(toExceptionExportForm(draft))}
      pending={exporter.isPending}
      texts={{ cancel: t('common.cancel'), submit: t('exportDialog.submit') }}
    />
  );
}

function ExceptionExportFields({ draft, set, range }: ExportFieldsProps<ExceptionExportDraft>) {
  const { t } = useExcT();
  const typeName = useDeclarationTypeName();
  const ports = usePortSlicInfo();
  const portOptions = useMemo(
    () =>
      ports.isError
        ? null
        : [
            { value: ALL, label: t('exportDialog.portPlaceholder') },
            ...toPortOptions(ports.data ?? []),
          ],
    [ports.data, ports.isError, t],
  );

  return (
    <>
      <Select
        label={t('exportDialog.declarationType')}
        data={[
          { value: ALL, label: t('exportDialog.allTypes') },
          ...TYPES.map((c) => ({ value: c, label: typeName(c, { detail: true, code: true }) })),
        ]}
        value={draft.declarationType || ALL}
        onChange={(v) => set('declarationType', !v || v === ALL ? '' : v)}
        allowDeselect={false}
      />
      <div>
        <Text size="sm" fw={500} mb={4} id="exc-export-shipment">
          {t('exportDialog.shipmentType')}
        </Text>
        <SegmentedControl
          aria-labelledby="exc-export-shipment"
          fullWidth
          value={draft.shipmentType}
          onChange={(v) => set('shipmentType', v)}
          data={['-1', '0', '1'].map((v) => ({ value: v, label: t(`shipment.${v}`) }))}
        />
      </div>
      {portOptions ? (
        <Select
          label={t('exportDialog.port')}
          data={portOptions}
          value={draft.port || ALL}
          onChange={(v) => set('port', !v || v === ALL ? '' : v)}
          searchable
          allowDeselect={false}
        />
      ) : (
        <TextInput
          label={t('exportDialog.port')}
          placeholder={t('exportDialog.portPlaceholder')}
          value={draft.port}
          onChange={(e) => set('port', e.currentTarget.value)}
        />
      )}
      <Select
        label={t('exportDialog.status')}
        data={STATUS_FILTER_VALUES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        value={draft.status}
        onChange={(v) => set('status', v ?? '-1')}
        allowDeselect={false}
      />
      <DatePickerInput
        type="range"
        label={t('exportDialog.dateRange')}
        placeholder={t('exportDialog.datePlaceholder')}
        required
        {...range.pickerProps}
      />
      <Select
        label={t('exportDialog.sort')}
        data={EXPORT_SORTS.map((s) => ({
          value: s,
          label: `${s} ${t(`exportDialog.sort${s}`)}`,
        }))}
        value={draft.sort}
        onChange={(v) => set('sort', v ?? '2')}
        allowDeselect={false}
      />
      <div>
        <Text size="sm" fw={500} mb={4} id="exc-export-format">
          {t('exportDialog.format')}
        </Text>
        <SegmentedControl
          aria-labelledby="exc-export-format"
          fullWidth
          value={draft.exportFormat}
          onChange={(v) => set('exportFormat', v as ExportFormat)}
          data={EXPORT_FORMATS.map((f) => ({ value: f, label: t(`exportDialog.format${f}`) }))}
        />
      </div>
    </>
  );
}
