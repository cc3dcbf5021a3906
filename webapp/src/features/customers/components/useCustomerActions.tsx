// The customer commands the list and the detail page share: new, maintain, disable/enable,
// delete, each with its dialog, and the one-time display of a new login's password.
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { message } from '@/lib/message';
import { ApiError } from '@/lib/request';
import { useDeleteCustomer } from '../api/deleteCustomer';
import { useDisableCustomer } from '../api/disableCustomer';
import { useEnableCustomer } from '../api/enableCustomer';
import {
  hasGeneratedPassword,
  type CustomerSummary,
  type GeneratedLogin,
  type NewLogin,
} from '@/shared/customers/model/types';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { CustomerFormDialog } from './CustomerFormDialog';
import { InitialPasswordDialog } from './InitialPasswordDialog';

export type CustomerCommand = 'disable' | 'enable' | 'delete';

type Dialog =
  | { kind: 'create' }
  | { kind: 'edit'; customer: CustomerSummary }
  | { kind: 'command'; command: CustomerCommand; customer: CustomerSummary }
  | { kind: 'password'; login: GeneratedLogin }
  | null;

export interface CustomerActions {
  create: () => void;
  edit: (c: CustomerSummary) => void;
  command: (command: CustomerCommand, c: CustomerSummary) => void;
  /** Show a new login's generated initial password (once); nothing when staff chose it. */
  showPassword: (login: NewLogin) => void;
  element: ReactNode;
}

export function useCustomerActions(
  options: { onDeleted?: (c: CustomerSummary) => void; onCreated?: (id: string) => void } = {},
): CustomerActions {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<Dialog>(null);
  const [error, setError] = useState<string | null>(null);
  // One hook per endpoint; the dialog runs the one its command names.
  const commands = {
    disable: useDisableCustomer(),
    enable: useEnableCustomer(),
    delete: useDeleteCustomer(),
  };
  const close = () => {
    setDialog(null);
    setError(null);
  };

  let element: ReactNode = null;
  if (dialog?.kind === 'create' || dialog?.kind === 'edit') {
    element = (
      <CustomerFormDialog
        customer={dialog.kind === 'edit' ? dialog.customer : null}
        onClose={() => setDialog((d) => (d?.kind === 'password' ? d : null))}
        onSaved={() => message.success(t('customers.message.saved'))}
        onCreated={(answer) => {
          message.success(t('customers.message.created'));
          options.onCreated?.(answer.id);
          if (hasGeneratedPassword(answer.account)) {
            // Replaces the form dialog; its onClose (next) keeps this one open.
            setDialog({ kind: 'password', login: answer.account });
          }
        }}
      />
    );
  } else if (dialog?.kind === 'password') {
    element = <InitialPasswordDialog login={dialog.login} onClose={close} />;
  } else if (dialog?.kind === 'command') {
    const { command, customer } = dialog;
    const run = commands[command];
    element = (
      <ConfirmDialog
        title={t(`customers.action.${command}`)}
        message={t(`customers.dialog.${command}Confirm`, {
          username: customer.username,
          company: customer.companyName,
        })}
        confirmLabel={t(`customers.action.${command}`)}
        danger={command !== 'enable'}
        withReason={command !== 'delete'}
        loading={run.isPending}
        error={error}
        onClose={close}
        onConfirm={({ reason }) => {
          setError(null);
          run.mutate(
            { id: customer.customerId, version: customer.version, reason },
            {
              onSuccess: () => {
                message.success(t(`customers.message.${command}d`));
                close();
                if (command === 'delete') options.onDeleted?.(customer);
              },
              onError: (e) =>
                setError(
                  e instanceof ApiError && e.status === 409 && e.reason === 'VERSION_CONFLICT'
                    ? t('customers.form.conflict')
                    : e.message,
                ),
            },
          );
        }}
      />
    );
  }

  return {
    create: () => setDialog({ kind: 'create' }),
    edit: (customer) => setDialog({ kind: 'edit', customer }),
    command: (command, customer) => {
      setError(null);
      setDialog({ kind: 'command', command, customer });
    },
    showPassword: (login) => {
      if (hasGeneratedPassword(login)) setDialog({ kind: 'password', login });
    },
    element,
  };
}
