// The one export dialog: a modal whose form mounts fresh each time it opens, the export's own
// fields, the date-range rules (useExportRange), the error in place with a warning icon
// (titled when the server refused) and cancel / export; success closes.
import { useState, type ComponentType, type Dispatch, type SetStateAction } from 'react';
import { Alert, Button, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { IconAlertTriangle, IconFileExport } from '@tabler/icons-react';
import { useExportRange, type RangeDraft } from './useExportRange';

export interface ExportFieldsProps<D extends RangeDraft> {
  draft: D;
  setDraft: Dispatch<SetStateAction<D>>;
  set: <K extends keyof D>(key: K, value: D[K]) => void;
  range: ReturnType<typeof useExportRange<D>>;
}

export interface ExportDialogProps<D extends RangeDraft> {
  opened?: boolean;
  onClose: () => void;
  title: string;
  /** The form's first values, taken each time the dialog opens. */
  initial: () => D;
  /** The export's own inputs. */
  fields: ComponentType<ExportFieldsProps<D>>;
  /** Saves the file; a rejection shows its message. */
  send: (draft: D) => Promise<unknown>;
  pending: boolean;
  texts: { cancel: string; submit: string; /** Title of a server refusal. */ failed?: string };
}

export function ExportDialog<D extends RangeDraft>(props: ExportDialogProps<D>) {
  return (
    <Modal
      opened={props.opened ?? true}
      onClose={props.onClose}
      title={props.title}
      size={800}
      closeOnClickOutside={false}
    >
      <ExportForm {...props} />
    </Modal>
  );
}

function ExportForm<D extends RangeDraft>({
  onClose,
  initial,
  fields: Fields,
  send,
  pending,
  texts,
}: ExportDialogProps<D>) {
  const [draft, setDraft] = useState<D>(initial);
  const range = useExportRange(draft, setDraft);
  const { error, setError } = range;
  /** The last error came from the server (vs. the form's own date rules). */
  const [serverError, setServerError] = useState(false);
  const set = <K extends keyof D>(key: K, value: D[K]) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = async () => {
    setServerError(false);
    if (!range.check()) return;
    try {
      await send(draft);
      onClose();
    } catch (e) {
      setServerError(true);
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Fields draft={draft} setDraft={setDraft} set={set} range={range} />
      </SimpleGrid>
      {error && (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={20} />}
          title={serverError ? texts.failed : undefined}
          role="alert"
        >
          {error}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {texts.cancel}
        </Button>
        <Button
          leftSection={<IconFileExport size={16} />}
          loading={pending}
          onClick={() => void submit()}
        >
          {texts.submit}
        </Button>
      </Group>
    </Stack>
  );
}
