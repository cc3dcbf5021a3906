// "Add login": another account of the customer (username, optional e-mail and initial
// password); the answer's initial password is shown once by the caller.
import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/lib/request';
import { validatePassword } from '@/lib/validators';
import { useAddCustomerAccount } from '../api/addCustomerAccount';
import type { NewLogin } from '@/shared/customers/model/types';
import { validateEmail, validateUsername } from '../model/validation';

type Field = 'username' | 'email' | 'initialPassword';

export function AddLoginDialog({
  customerId,
  onClose,
  onAdded,
}: {
  customerId: string;
  onClose: () => void;
  onAdded: (login: NewLogin) => void;
}) {
  const { t } = useTranslation();
  const add = useAddCustomerAccount();
  const [values, setValues] = useState<Record<Field, string>>({
    username: '',
    email: '',
    initialPassword: '',
  });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const set = (f: Field) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const v = e.currentTarget.value;
    setValues((x) => ({ ...x, [f]: v }));
  };

  const submit = () => {
    setFormError(null);
    const username = values.username.trim();
    const email = values.email.trim();
    const problems: Partial<Record<Field, string>> = {};
    const u = validateUsername(username);
    if (u) problems.username = t(u);
    const m = validateEmail(email);
    if (m) problems.email = t(m);
    if (values.initialPassword) {
      const p = validatePassword(values.initialPassword, { username, email });
      if (p) problems.initialPassword = t(p);
    }
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    add.mutate(
      {
        customerId,
        username,
        email: email || undefined,
        initialPassword: values.initialPassword || undefined,
      },
      {
        onSuccess: (answer) => onAdded(answer.account),
        onError: (e) => {
          if (!(e instanceof ApiError)) return setFormError(e.message);
          if (e.status === 409 && e.reason === 'USERNAME_TAKEN') {
            return setErrors({ username: e.message });
          }
          const next: Partial<Record<Field, string>> = {};
          const rest: string[] = [];
          for (const f of e.fieldErrors) {
            if (f.field === 'username' || f.field === 'email' || f.field === 'initialPassword') {
              next[f.field] ??= f.message;
            } else rest.push(f.message);
          }
          setErrors(next);
          if (rest.length > 0 || Object.keys(next).length === 0) {
            setFormError(rest.length > 0 ? rest.join('; ') : e.message);
          }
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title={t('customers.accounts.add')}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <TextInput
            label={t('customers.accounts.username')}
            withAsterisk
            value={values.username}
            onChange={set('username')}
            error={errors.username}
            autoComplete="off"
            data-autofocus
          />
          <TextInput
            label={t('customers.accounts.email')}
            type="email"
            value={values.email}
            onChange={set('email')}
            error={errors.email}
          />
          <PasswordInput
            label={t('customers.field.initialPassword')}
            description={t('customers.form.initialPasswordHint')}
            value={values.initialPassword}
            onChange={set('initialPassword')}
            error={errors.initialPassword}
            autoComplete="new-password"
          />
          {formError && (
            <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
              {formError}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={add.isPending}>
              {t('customers.accounts.add')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
