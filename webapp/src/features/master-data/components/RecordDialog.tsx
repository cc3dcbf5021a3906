// A master data form in a modal: text fields (with the client checks of model/validation),
// the owning customer for staff creating a record, and the server's field errors.
import { useState, type ReactNode } from 'react';
import { Button, Group, Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { CustomerPicker } from '@/shared/customers/components/CustomerPicker';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText, fieldErrorsOf } from '@/shared/platform/model/errors';
import type { Problems } from '../model/validation';
import type { FieldSpec } from '../model/fields';

export interface RecordDialogProps {
  title: string;
  /** i18n prefix of the field labels (`masterData.trade.field`). */
  labels: string;
  fields: readonly FieldSpec[];
  initial: Record<string, string>;
  /** Editing: no customer to choose. */
  editing: boolean;
  check: (values: Record<string, string>) => Problems;
  onSubmit: (values: Record<string, string>, customerId: string) => Promise<unknown>;
  onClose: () => void;
  extra?: ReactNode;
}

export function RecordDialog(props: RecordDialogProps) {
  const { t } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const staffCreating = !props.editing && !isCustomer(role);
  const [values, setValues] = useState<Record<string, string>>(props.initial);
  const [customerId, setCustomerId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const names = [...props.fields.map((f) => f.name), 'customerId'];

  const submit = async () => {
    setFormError(null);
    const local: Record<string, string> = {};
    for (const [field, key] of Object.entries(props.check(values)))
      local[field] = t(`masterData.error.${key}`);
    if (staffCreating && !customerId) local.customerId = t('masterData.error.required');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      await props.onSubmit(values, customerId);
      props.onClose();
    } catch (e) {
      const fields = fieldErrorsOf(e, names);
      setErrors(fields);
      if (!Object.keys(fields).length) setFormError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={props.onClose} title={props.title} size="lg" closeOnClickOutside={false}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          {staffCreating && (
            <CustomerPicker
              label={t('masterData.common.customer')}
              required
              value={customerId}
              onChange={(v) => setCustomerId(v)}
              error={errors.customerId}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {props.fields.map((f) => (
              <TextInput
                key={f.name}
                label={t(`${props.labels}.${f.name}`)}
                required={f.required}
                maxLength={f.maxLength}
                placeholder={f.placeholder}
                value={values[f.name] ?? ''}
                error={errors[f.name]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setValues((v) => ({ ...v, [f.name]: value }));
                }}
              />
            ))}
          </SimpleGrid>
          {props.extra}
          <FormError message={formError} />
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              {t('masterData.common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('masterData.common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
