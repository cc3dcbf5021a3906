// The dialog of the actions that carry a payload: a reason (required for return, reject,
// send-back and amend; optional for delete), a receipt code (complete P/R, reject E/Z/Y)
// and, for amend, the changes.
import { useState } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useDeclT } from '@/shared/declarations/i18n';
import {
  RECEIPT_CODES,
  REASON_OPTIONAL,
  REASON_REQUIRED,
  type MoveAction,
} from '@/shared/declarations/model/actions';
import type { ActionBody } from '../api/runDeclarationAction';
import { parseAmendChanges } from '../model/amend';

export const MAX_REASON = 500;

export interface ActionDialogProps {
  action: MoveAction | null;
  tracking?: string | null;
  loading?: boolean;
  /** Error of the last attempt (shown in the dialog). */
  error?: string | null;
  onClose: () => void;
  onSubmit: (body: ActionBody) => void;
}

export function ActionDialog({
  action,
  tracking,
  loading,
  error,
  onClose,
  onSubmit,
}: ActionDialogProps) {
  const { t } = useDeclT();
  const [reason, setReason] = useState('');
  const [receipt, setReceipt] = useState<string | null>(null);
  const [changes, setChanges] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  if (!action) return null;
  const reasonRequired = REASON_REQUIRED.includes(action);
  const reasonShown = reasonRequired || REASON_OPTIONAL.includes(action);
  const receipts = RECEIPT_CODES[action];

  const submit = () => {
    const body: ActionBody = {};
    const trimmed = reason.trim();
    if (reasonShown) {
      if (reasonRequired && !trimmed) return setProblem(t('dialog.reasonRequired'));
      if (trimmed.length > MAX_REASON) return setProblem(t('dialog.reasonTooLong'));
      if (trimmed) body.reason = trimmed;
    }
    if (receipts && receipt) body.receiptCode = receipt;
    if (action === 'amend') {
      const parsed = parseAmendChanges(changes);
      if ('badLine' in parsed)
        return setProblem(t('dialog.amendBadLine', { line: parsed.badLine }));
      if (Object.keys(parsed.changes).length === 0) return setProblem(t('dialog.amendRequired'));
      body.changes = parsed.changes;
    }
    setProblem(null);
    onSubmit(body);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('dialog.title', { action: t(`action.${action}`), tracking: tracking ?? '' })}
      size={action === 'amend' ? 'lg' : 'md'}
    >
      <Stack>
        {action === 'delete' && (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />}>
            {t('dialog.deleteWarning')}
          </Alert>
        )}
        {receipts && (
          <Select
            label={t('dialog.receiptCode')}
            placeholder={t('dialog.receiptNone')}
            clearable
            value={receipt}
            onChange={setReceipt}
            data={receipts.map((c) => ({ value: c, label: t(`receipt.${c}`) }))}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {action === 'amend' && (
          <Textarea
            label={t('dialog.amendChanges')}
            description={t('dialog.amendHint')}
            autosize
            minRows={3}
            value={changes}
            onChange={(e) => setChanges(e.currentTarget.value)}
            required
            styles={{ input: { fontFamily: 'monospace' } }}
          />
        )}
        {reasonShown && (
          <Textarea
            label={reasonRequired ? t('dialog.reason') : t('dialog.reasonOptional')}
            placeholder={t('dialog.reasonPlaceholder')}
            required={reasonRequired}
            autosize
            minRows={3}
            maxLength={MAX_REASON}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            data-autofocus
          />
        )}
        {(problem || error) && (
          <Text c="red" size="sm" role="alert">
            {problem || error}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color={action === 'delete' || action === 'reject' ? 'red' : undefined}
            loading={loading}
            onClick={submit}
          >
            {t(`action.${action}`)}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
