// The exception export dialog (spec 3 "Exception export form", 5 "Export", 7, 9): declaration
// type, port, shipment type, status, the date range with the 365-day / 180-day / no-future
// rules, sort 1 / 2 and the format (01 EXCEL, 02 XML, 03 both in a zip). The file is saved
// under the server's name. Errors show in place with a warning icon; success closes.
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
import { usePortSlicInfo } from '@/features/platform/api/getPortSlicInfo';
import { portOptions as toPortOptions } from '@/features/platform/model/exportLists';
import { useExcT } from '../i18n';
import { useExportExceptions } from '../api/exportExceptions';
import {
  EXPORT_FORMATS,
  EXPORT_SORTS,
  initialExceptionExport,
  toExceptionExportForm,
  type ExceptionExportDraft,
  type ExportFormat,
} from '../model/exportForm';
import { STATUS_FILTER_VALUES } from '../model/statuses';

const TYPES = ['OB', 'OC', 'OD', 'IB', 'IC', 'ID'];
/** The "all" choice of a select (Mantine keeps an empty string for "nothing chosen"). */
const ALL = '-1';

export interface ExportExceptionsDialogProps {
  onClose: () => void;
  initial?: Partial<ExceptionExportDraft>;
}

export function ExportExceptionsDialog({ onClose, initial }: ExportExceptionsDialogProps) {
  const { t } = useExcT();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('exportDialog.title')}
      size={800}
      closeOnClickOutside={false}
    >
      <ExportForm onClose={onClose} initial={initial} />
    </Modal>
  );
}

function ExportForm({ onClose, initial }: ExportExceptionsDialogProps) {
  const { t } = useExcT();
  const { t: tg } = useTranslation();
  const [draft, setDraft] = useState(() => initialExceptionExport(initial));
  const range = useExportRange(draft, setDraft);
  const { error, setError } = range;
  const exporter = useExportExceptions();
  const ports = usePortSlicInfo();

  const set = <K extends keyof ExceptionExportDraft>(key: K, value: ExceptionExportDraft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));

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

  const submit = async () => {
    if (!range.check()) return;
    try {
      await exporter.mutateAsync(toExceptionExportForm(draft));
      onClose();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label={t('exportDialog.declarationType')}
          data={[
            { value: ALL, label: t('exportDialog.allTypes') },
            ...TYPES.map((c) => ({ value: c, label: tg(`declarationType.${c}`) })),
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
      </SimpleGrid>
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={20} />} role="alert">
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
