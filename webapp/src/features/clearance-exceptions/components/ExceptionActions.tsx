// The buttons of the actions the user's role may take in the exception's status, each
// behind a confirmation (reject and void ask for a reason; staff confirming for the
// customer give a note). A refusal shows in the dialog; a version conflict reloads.
import { useState } from 'react';
import { Button, Checkbox, Group, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog, MAX_REASON, type ConfirmValues } from '@/components/ConfirmDialog';
import { ApiError } from '@/lib/request';
import { showMessage } from '@/lib/message';
import { isCustomer, type Role } from '@/lib/roles';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useNotifyException } from '../api/notifyException';
import { useAcknowledgeException } from '../api/acknowledgeException';
import { useRespondException } from '../api/respondException';
import { useApproveException } from '../api/approveException';
import { useRejectException } from '../api/rejectException';
import { useVoidException } from '../api/voidException';
import { exceptionKeys } from '@/shared/clearance-exceptions/api/keys';
import {
  EXCEPTION_ACTIONS,
  allowedExceptionActions,
  type ExceptionAction,
} from '@/shared/clearance-exceptions/model/statuses';

const COLORS: Partial<Record<ExceptionAction, string>> = {
  approve: 'teal',
  reject: 'orange',
  void: 'red',
};

export interface ExceptionActionsProps {
  id: string;
  version: number;
  status: number;
  role: Role | null;
  /** Whether the exception proposes changes the customer confirms by responding. */
  hasChanges: boolean;
  /** The moves the server says the caller may make now (preferred over the local table). */
  serverActions?: readonly string[];
  /** The last notice's channels: what a notice sent again goes on unless changed. */
  channels?: readonly string[];
  /** The requested documents without a file: answering needs a reason for each. */
  unsupplied?: readonly string[];
  /** A requested document's name in the reader's language. */
  documentName?: (slot: string) => string;
}

const CHANNELS = ['email', 'sms', 'wechat'] as const;

export function ExceptionActions({
  id,
  version,
  status,
  role,
  hasChanges,
  serverActions,
  channels,
  unsupplied = [],
  documentName = (slot) => slot,
}: ExceptionActionsProps) {
  const { t } = useExcT();
  const client = useQueryClient();
  const [open, setOpen] = useState<ExceptionAction | null>(null);
  const [resendOn, setResendOn] = useState<string[]>(() =>
    CHANNELS.filter((c) => channels?.includes(c)),
  );
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const notify = useNotifyException();
  const acknowledge = useAcknowledgeException();
  const respond = useRespondException();
  const approve = useApproveException();
  const reject = useRejectException();
  const voidIt = useVoidException();

  const actions = serverActions
    ? EXCEPTION_ACTIONS.filter((a) => serverActions.includes(a))
    : allowedExceptionActions(role, status);
  if (actions.length === 0) return null;
  const customer = isCustomer(role);
  const label = (a: ExceptionAction) =>
    a === 'notify' && status !== 1
      ? t('action.renotify')
      : a === 'respond' && customer
        ? t('customer.confirm')
        : t(`action.${a}`);

  const run = async (action: ExceptionAction, values: ConfirmValues) => {
    const base = { id, version };
    try {
      switch (action) {
        case 'notify':
          // Sent again (2, 3): on the channels ticked; the first notice takes the form's.
          await notify.mutateAsync(
            resending && resendOn.length > 0 ? { ...base, body: { channels: resendOn } } : base,
          );
          break;
        case 'acknowledge':
          await acknowledge.mutateAsync(base);
          break;
        case 'respond': {
          const blank = unsupplied.find((slot) => !(reasons[slot] ?? '').trim());
          if (blank)
            throw new Error(t('detail.missingReasonRequired', { name: documentName(blank) }));
          const missing = unsupplied.map((slot) => ({
            document: slot,
            reason: (reasons[slot] ?? '').trim(),
          }));
          await respond.mutateAsync({
            ...base,
            body: {
              confirmChanges: hasChanges,
              ...(values.input ? { note: values.input } : {}),
              ...(missing.length > 0 ? { missing } : {}),
            },
          });
          break;
        }
        case 'approve':
          await approve.mutateAsync(base);
          break;
        case 'reject':
          await reject.mutateAsync({ ...base, body: { reason: values.input ?? '' } });
          break;
        case 'void':
          await voidIt.mutateAsync({ ...base, body: { reason: values.input ?? '' } });
          break;
      }
      showMessage('success', t('action.done'));
    } catch (e) {
      if (e instanceof ApiError && e.reason === 'VERSION_CONFLICT') {
        await client.invalidateQueries({ queryKey: exceptionKeys.all });
        throw new Error(t('detail.versionConflict'), { cause: e });
      }
      throw e;
    }
  };

  const resending = status !== 1;
  const needsReason = open === 'reject' || open === 'void';
  const needsNote = open === 'respond' && !customer;
  const lengthRule = (v: string) => (v.length > MAX_REASON ? t('rule.tooLong') : null);

  return (
    <>
      <Group gap="xs">
        {actions.map((a) => (
          <Button
            key={a}
            color={COLORS[a]}
            variant={a === 'void' ? 'outline' : 'filled'}
            onClick={() => setOpen(a)}
          >
            {label(a)}
          </Button>
        ))}
      </Group>
      {open && (
        <ConfirmDialog
          title={label(open)}
          message={
            open === 'notify' && resending
              ? t('delivery.resendMessage')
              : t(`action.message.${open}`)
          }
          extra={
            open === 'notify' && resending ? (
              <Checkbox.Group
                label={t('delivery.resendChannels')}
                value={resendOn}
                onChange={setResendOn}
              >
                <Group gap="md" mt={4}>
                  {CHANNELS.map((c) => (
                    <Checkbox key={c} value={c} label={t(`delivery.channel.${c}`)} />
                  ))}
                </Group>
              </Checkbox.Group>
            ) : open === 'respond' && unsupplied.length > 0 ? (
              <Stack gap="xs">
                <Text size="sm" c="orange.8">
                  {t('detail.missingIntro')}
                </Text>
                {unsupplied.map((slot) => (
                  <Textarea
                    key={slot}
                    label={t('detail.missingReason', { name: documentName(slot) })}
                    withAsterisk
                    autosize
                    minRows={1}
                    maxLength={MAX_REASON}
                    value={reasons[slot] ?? ''}
                    onChange={(e) => {
                      const value = e.currentTarget.value;
                      setReasons((r) => ({ ...r, [slot]: value }));
                    }}
                  />
                ))}
              </Stack>
            ) : undefined
          }
          confirmLabel={label(open)}
          danger={open === 'void'}
          input={
            needsReason
              ? { label: t('action.reason'), validate: lengthRule }
              : needsNote
                ? { label: t('action.note'), validate: lengthRule }
                : undefined
          }
          onClose={() => setOpen(null)}
          onConfirm={(values) => run(open, values)}
        />
      )}
    </>
  );
}
