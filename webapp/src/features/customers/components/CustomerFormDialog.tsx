// "New customer" and "maintain" dialog: the profile fields, the declaration types, and on
// creation the first login (switch, login e-mail, optional initial password). Client checks
// mirror the server's; the server's field errors land on the same inputs.
import { useMemo, useRef, useState } from 'react';
import {
  Alert,
  Autocomplete,
  Button,
  Divider,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { usePortSlicInfo } from '@/shared/platform/api/getPortSlicInfo';
import { DECLARATION_TYPES } from '@/lib/declarations';
import { ApiError } from '@/lib/request';
import { useCreateCustomer, type CreateCustomerAnswer } from '../api/createCustomer';
import { useUpdateCustomer } from '../api/updateCustomer';
import { portOptions, slicOptions, type PortSlicEntry } from '../model/links';
import type { CustomerSummary } from '@/shared/customers/model/types';
import {
  EMPTY_CUSTOMER_FORM,
  formFieldOf,
  toCreateBody,
  toProfileBody,
  validateCustomerForm,
  type CustomerFormValues,
} from '../model/validation';

export interface CustomerFormDialogProps {
  /** The customer to maintain; absent for a new one. */
  customer?: CustomerSummary | null;
  onClose: () => void;
  /** After a successful creation (the answer carries the login's initial password). */
  onCreated?: (answer: CreateCustomerAnswer, username: string) => void;
  onSaved?: () => void;
}

function valuesOf(c: CustomerSummary | null | undefined): CustomerFormValues {
  if (!c) return EMPTY_CUSTOMER_FORM;
  return {
    ...EMPTY_CUSTOMER_FORM,
    username: c.username,
    companyName: c.companyName ?? '',
    city: c.city ?? '',
    portCode: c.portCode ?? '',
    slicCode: c.slicCode ?? '',
    postalCode: c.postalCode ?? '',
    upsAccount: c.upsAccount ?? '',
    upsId: c.upsId ?? '',
    accountNo: c.accountNo ?? '',
    email: c.email ?? '',
    scc: c.scc ?? '',
    declarationTypes: c.declarationTypes ?? [],
    createLogin: false,
  };
}

function newKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export function CustomerFormDialog({
  customer,
  onClose,
  onCreated,
  onSaved,
}: CustomerFormDialogProps) {
  const { t } = useTranslation();
  const mode = customer ? 'edit' : 'create';
  const form = useForm<CustomerFormValues>({ initialValues: valuesOf(customer) });
  const [formError, setFormError] = useState<string | null>(null);
  const idempotencyKey = useRef(newKey());
  const create = useCreateCustomer();
  const update = useUpdateCustomer();
  const busy = create.isPending || update.isPending;
  const ports = usePortSlicInfo();
  const portEntries: readonly PortSlicEntry[] | undefined = ports.data;
  const portData = useMemo(() => portOptions(portEntries), [portEntries]);
  const slicData = useMemo(
    () => slicOptions(portEntries, form.values.portCode.trim()),
    [portEntries, form.values.portCode],
  );

  const submit = async () => {
    setFormError(null);
    const problems = validateCustomerForm(form.values, mode);
    form.setErrors(Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, t(v)])));
    if (Object.keys(problems).length > 0) return;
    try {
      if (customer) {
        await update.mutateAsync({
          id: customer.customerId,
          version: customer.version,
          body: toProfileBody(form.values),
        });
        onSaved?.();
      } else {
        const answer = await create.mutateAsync({
          body: toCreateBody(form.values),
          idempotencyKey: idempotencyKey.current,
        });
        onCreated?.(answer, form.values.username.trim());
      }
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.status === 409 && e.reason === 'VERSION_CONFLICT') {
        setFormError(t('customers.form.conflict'));
        return;
      }
      if (e.status === 409 && e.reason === 'USERNAME_TAKEN') {
        form.setErrors({ username: e.message });
        return;
      }
      if (e.status === 409 && e.reason === 'UPS_ID_TAKEN') {
        form.setErrors({ upsId: e.message });
        return;
      }
      const known = new Set(Object.keys(form.values));
      const onFields: Record<string, string> = {};
      const elsewhere: string[] = [];
      for (const f of e.fieldErrors) {
        const path = formFieldOf(f.field);
        if (known.has(path)) onFields[path] ??= f.message;
        else elsewhere.push(f.message);
      }
      form.setErrors(onFields);
      if (elsewhere.length > 0 || Object.keys(onFields).length === 0) {
        setFormError(elsewhere.length > 0 ? elsewhere.join('; ') : e.message);
      }
    }
  };

  const text = (name: keyof CustomerFormValues, extra: object = {}) => ({
    label: t(`customers.field.${name}`),
    ...form.getInputProps(name),
    ...extra,
  });

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={
        customer
          ? t('customers.form.editTitle', { username: customer.username })
          : t('customers.form.newTitle')
      }
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            <TextInput
              {...text('username', {
                withAsterisk: !customer,
                disabled: !!customer,
                description: customer ? t('customers.form.usernameFixed') : undefined,
                autoComplete: 'off',
              })}
            />
            <TextInput {...text('companyName', { withAsterisk: true })} />
            <TextInput {...text('city')} />
            <TextInput {...text('postalCode', { placeholder: '200120', inputMode: 'numeric' })} />
            <Autocomplete {...text('portCode')} data={portData} />
            <Autocomplete {...text('slicCode')} data={slicData} />
            <TextInput {...text('upsAccount')} />
            <TextInput {...text('upsId')} />
            <TextInput {...text('accountNo')} />
            <TextInput {...text('email', { type: 'email' })} />
            <TextInput
              {...text('scc', { placeholder: t('customers.form.sccPlaceholder'), maxLength: 18 })}
            />
            <MultiSelect
              {...text('declarationTypes')}
              data={DECLARATION_TYPES.map((d) => ({
                value: d,
                label: `${d} ${t(`declarationType.${d}`)}`,
              }))}
              clearable
            />
          </SimpleGrid>
          {!customer && (
            <>
              <Divider label={t('customers.form.loginSection')} labelPosition="left" />
              <Switch
                label={t('customers.field.createLogin')}
                description={t('customers.form.createLoginHint')}
                {...form.getInputProps('createLogin', { type: 'checkbox' })}
              />
              {form.values.createLogin && (
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
                  <TextInput {...text('loginEmail', { type: 'email' })} />
                  <PasswordInput
                    {...text('initialPassword', {
                      description: t('customers.form.initialPasswordHint'),
                      autoComplete: 'new-password',
                    })}
                  />
                </SimpleGrid>
              )}
            </>
          )}
          {formError && (
            <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
              <Text size="sm">{formError}</Text>
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {customer ? t('customers.form.save') : t('customers.form.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
