// Running a declaration action from a list row or a detail page: confirm or ask for the
// payload, send it with If-Match, then report. A 409 VERSION_CONFLICT opens the reload
// prompt; a 409 ILLEGAL_TRANSITION and other errors show the server's message; the
// submit's field errors go to `onFieldErrors` (the detail page sends the user to the form).
import { useState, type ReactNode } from 'react';
import { modals } from '@mantine/modals';
import { useQueryClient } from '@tanstack/react-query';
import { message } from '@/lib/message';
import { ApiError, type FieldError } from '@/lib/request';
import { useDeclT } from '@/shared/declarations/i18n';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { useDeclarationAction, type ActionBody } from '../api/runDeclarationAction';
import {
  needsDialog,
  type DeclarationAction,
  type MoveAction,
} from '@/shared/declarations/model/actions';
import type { CommandAnswer } from '@/lib/apiTypes';
import { ActionDialog } from './ActionDialog';
import { VersionConflictModal } from './VersionConflict';

export interface ActionTarget {
  id: string;
  version: number;
  status: number;
  declarationType: string;
  trackingNumber?: string | null;
}

export interface UseDeclarationActionsOptions {
  onEdit?: (target: ActionTarget) => void;
  onDone?: (action: MoveAction, answer: CommandAnswer, target: ActionTarget) => void;
  onFieldErrors?: (target: ActionTarget, errors: FieldError[], error: ApiError) => void;
  /** Show the conflict inline instead of in a dialog (the detail page). */
  onConflict?: () => void;
}

export function useDeclarationActions(options: UseDeclarationActionsOptions = {}) {
  const { t } = useDeclT();
  const client = useQueryClient();
  const mutation = useDeclarationAction();
  const [dialog, setDialog] = useState<{ action: MoveAction; target: ActionTarget } | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);

  const reload = () => {
    setConflict(false);
    void client.invalidateQueries({ queryKey: declarationKeys.all });
  };

  const execute = async (action: MoveAction, target: ActionTarget, body?: ActionBody) => {
    setDialogError(null);
    try {
      const answer = await mutation.mutateAsync({
        id: target.id,
        action,
        version: target.version,
        body,
      });
      setDialog(null);
      message.success(t(`done.${action}`));
      options.onDone?.(action, answer, target);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.status === 409 && e.reason === 'VERSION_CONFLICT') {
        setDialog(null);
        if (options.onConflict) options.onConflict();
        else setConflict(true);
        return;
      }
      if (e.fieldErrors.length > 0 && options.onFieldErrors) {
        setDialog(null);
        options.onFieldErrors(target, e.fieldErrors, e);
        return;
      }
      const text =
        e.fieldErrors.length > 0
          ? `${e.message}: ${e.fieldErrors
              .slice(0, 3)
              .map((f) => `${f.field} ${f.message}`)
              .join('; ')}`
          : e.message;
      if (dialog || needsDialog(action)) setDialogError(text);
      else message.error(text);
    }
  };

  const run = (action: DeclarationAction, target: ActionTarget) => {
    if (action === 'edit') {
      options.onEdit?.(target);
      return;
    }
    if (needsDialog(action)) {
      setDialogError(null);
      setDialog({ action, target });
      return;
    }
    modals.openConfirmModal({
      title: `${t(`action.${action}`)}${target.trackingNumber ? `：${target.trackingNumber}` : ''}`,
      children: t(`confirmText.${action}`, { defaultValue: t(`action.${action}`) }),
      labels: { confirm: t(`action.${action}`), cancel: t('common.cancel') },
      onConfirm: () => void execute(action, target),
    });
  };

  const element: ReactNode = (
    <>
      <ActionDialog
        key={dialog ? `${dialog.action}-${dialog.target.id}` : 'none'}
        action={dialog?.action ?? null}
        tracking={dialog?.target.trackingNumber}
        loading={mutation.isPending}
        error={dialogError}
        onClose={() => setDialog(null)}
        onSubmit={(body) => dialog && void execute(dialog.action, dialog.target, body)}
      />
      <VersionConflictModal
        opened={conflict}
        onClose={() => setConflict(false)}
        onReload={reload}
      />
    </>
  );

  return { run, execute, element, pending: mutation.isPending, reload };
}
