// A confirmation dialog for one command: message, optional reason, the server's error shown
// in the dialog (nothing is toasted), closes on success.
import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../model/errors';

export interface ConfirmDialogProps {
  title: string;
  message: string;
  /** Ask for an optional reason (passed to onConfirm). */
  withReason?: boolean;
  confirmLabel?: string;
  danger?: boolean;
  onConfirm: (reason: string) => Promise<unknown>;
  onClose: () => void;
}

export function ConfirmDialog({
  title,
  message,
  withReason,
  confirmLabel,
  danger,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm(reason.trim());
      onClose();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={title} closeOnClickOutside={false}>
      <Stack>
        <Text size="sm">{message}</Text>
        {withReason && (
          <Textarea
            label={t('platform.staff.confirm.reason')}
            value={reason}
            maxLength={500}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
        )}
        {error && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('platform.common.cancel')}
          </Button>
          <Button color={danger ? 'red' : undefined} loading={busy} onClick={() => void confirm()}>
            {confirmLabel ?? t('platform.common.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
