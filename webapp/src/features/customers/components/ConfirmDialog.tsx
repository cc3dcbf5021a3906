// Confirmation of a customer or login command: an optional reason (disable/enable), an
// input (the new login of a transfer), and the server's refusal shown in place (e.g. the
// 409 of deleting a customer whose declarations are in progress).
import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export const MAX_REASON = 500;

export interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  /** Show an optional reason. */
  withReason?: boolean;
  /** Ask for a value (label); required. */
  input?: { label: string; description?: string; validate?: (v: string) => string | null };
  loading?: boolean;
  error?: string | null;
  onClose: () => void;
  onConfirm: (values: { reason?: string; input?: string }) => void;
}

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  danger,
  withReason,
  input,
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

  const confirm = () => {
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
    onConfirm({ reason: trimmedReason || undefined, input: input ? value.trim() : undefined });
  };

  return (
    <Modal opened onClose={onClose} title={title}>
      <Stack>
        <Text size="sm">{message}</Text>
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
            label={t('customers.dialog.reasonOptional')}
            autosize
            minRows={2}
            maxLength={MAX_REASON}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus={!input || undefined}
          />
        )}
        {(error || problem) && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
            {error || problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} loading={loading} onClick={confirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
