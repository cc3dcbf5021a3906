// New password + confirmation, checked with the server's rule (lib/validators) before it is
// sent; the server's field errors are shown under the fields, anything else above them.
import { useState } from 'react';
import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { validateConfirmPassword, validatePassword, type PasswordOwner } from '@/lib/validators';
import { splitFieldErrors } from '@/shared/auth/model/fieldErrors';

export interface NewPasswordValues {
  newPassword: string;
  confirmNewPassword: string;
}

export interface NewPasswordFormProps {
  owner: PasswordOwner;
  submitLabel: string;
  /** Resolves when done; a rejection is shown on the form. */
  onSubmit: (values: NewPasswordValues) => Promise<void>;
}

const FIELDS = ['newPassword', 'confirmNewPassword'] as const;

export function NewPasswordForm({ owner, submitLabel, onSubmit }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const tr = (key: string | null) => (key ? t(key) : null);
  const form = useForm<NewPasswordValues>({
    initialValues: { newPassword: '', confirmNewPassword: '' },
    validate: {
      newPassword: (v) => tr(validatePassword(v, owner)),
      confirmNewPassword: (v, values) => tr(validateConfirmPassword(v, values.newPassword, owner)),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    setBusy(true);
    try {
      await onSubmit(values);
    } catch (error) {
      const { fields, other } = splitFieldErrors(error, FIELDS);
      form.setErrors(fields);
      setServerError(other ?? (Object.keys(fields).length ? null : t('request.network')));
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {serverError && (
          <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
            {serverError}
          </Alert>
        )}
        <PasswordInput
          label={t('identity.password.new')}
          description={t('validation.passwordRule')}
          withAsterisk
          autoComplete="new-password"
          data-autofocus
          {...form.getInputProps('newPassword')}
        />
        <PasswordInput
          label={t('identity.password.confirm')}
          withAsterisk
          autoComplete="new-password"
          {...form.getInputProps('confirmNewPassword')}
        />
        <Button type="submit" loading={busy} fullWidth mt="sm">
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
