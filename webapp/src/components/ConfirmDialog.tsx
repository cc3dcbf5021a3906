// The one confirmation dialog of the app: a message, an optional reason, an optional
// required value (e.g. the new login of a transfer), and the server's refusal shown in place
// (nothing is toasted). When `onConfirm` returns a promise the dialog shows it running,
// closes when it succeeds and shows its error when it fails; otherwise the caller passes
// `loading` and `error` and closes it.
import { useState, type ReactNode } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export const MAX_REASON = 500;

export interface ConfirmValues {
  /** The trimmed reason, absent when none was given. */
  reason?: string;
  /** The trimmed value of `input`. */
  input?: string;
}

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel?: string;
  danger?: boolean;
  /** Show an optional reason (at most MAX_REASON characters). */
  withReason?: boolean;
  /** The reason's label (default "Reason (optional)"). */
  reasonLabel?: string;
  /** Ask for a value (label); required. */
  input?: { label: string; description?: string; validate?: (v: string) => string | null };
  /** More to choose before confirming (shown under the message). */
  extra?: ReactNode;
  loading?: boolean;
  error?: string | null;
  onClose: () => void;
  onConfirm: (values: ConfirmValues) => unknown;
}

const isPromise = (v: unknown): v is Promise<unknown> =>
  typeof (v as { then?: unknown } | null)?.then === 'function';

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  danger,
  withReason,
  reasonLabel,
  input,
  extra,
  loading,
  error,
  onClose,
  onConfirm,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [inputError, setInputError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    const trimmedReason = reason.trim();
    const bad = input
      ? value.trim()
        ? (input.validate?.(value.trim()) ?? null)
        : t('customers.rule.required')
      : null;
    setInputError(bad);
    const tooLong = trimmedReason.length > MAX_REASON ? t('customers.rule.reasonTooLong') : null;
    setProblem(tooLong);
    if (bad || tooLong) return;
    const run = onConfirm({
      reason: trimmedReason || undefined,
      input: input ? value.trim() : undefined,
    });
    if (!isPromise(run)) return;
    setBusy(true);
    try {
      await run;
      onClose();
    } catch (e) {
      setProblem(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={title} closeOnClickOutside={false}>
      <Stack>
        <Text size="sm">{message}</Text>
        {extra}
        {input && (
          <TextInput
            label={input.label}
            description={input.description}
            value={value}
            onChange={(e) => setValue(e.currentTarget.value)}
            withAsterisk
            data-autofocus
            error={inputError}
          />
        )}
        {withReason && (
          <Textarea
            label={reasonLabel ?? t('customers.dialog.reasonOptional')}
            autosize
            minRows={2}
            maxLength={MAX_REASON}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus={!input || undefined}
          />
        )}
        {(error || problem) && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {error || problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color={danger ? 'red' : undefined}
            loading={loading || busy}
            onClick={() => void confirm()}
          >
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
