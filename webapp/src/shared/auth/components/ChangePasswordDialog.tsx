// Change password (spec 5): username read-only; rules and messages from lib/validators;
// on success "changed successfully", close, then log out.
import { useState } from 'react';
import { Alert, Button, Group, Modal, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { message } from '@/lib/message';
import { ApiError } from '@/lib/request';
import { useSessionStore } from '@/lib/session';
import {
  validateConfirmPassword,
  validateOldPassword,
  validatePassword,
  validateUsername,
} from '@/lib/validators';
import { useChangePassword } from '@/shared/auth/api/changePassword';
import { useLogout } from '@/shared/auth/useLogout';

export interface ChangePasswordDialogProps {
  opened: boolean;
  onClose: () => void;
}

export default function ChangePasswordDialog({ opened, onClose }: ChangePasswordDialogProps) {
  const { t } = useTranslation();
  const userinfo = useSessionStore((s) => s.userinfo);
  const mutation = useChangePassword();
  const { logoutNow } = useLogout();
  const [serverError, setServerError] = useState<string | null>(null);
  const owner = {
    name: userinfo?.displayName,
    username: userinfo?.userName,
    email: userinfo?.email,
  };

  const form = useForm({
    mode: 'controlled',
    initialValues: {
      username: userinfo?.userName ?? '',
      oldPassword: '',
      newPassword: '',
      confirmNewPassword: '',
    },
    validate: {
      username: (v) => tr(validateUsername(v)),
      oldPassword: (v) => tr(validateOldPassword(v)),
      newPassword: (v) => tr(validatePassword(v, owner)),
      confirmNewPassword: (v, values) => tr(validateConfirmPassword(v, values.newPassword, owner)),
    },
  });

  function tr(key: string | null) {
    return key ? t(key) : null;
  }

  const submit = form.onSubmit(async (values) => {
    setServerError(null);
    try {
      await mutation.mutateAsync(values);
      message.success(t('password.changed'));
      onClose();
      await logoutNow();
    } catch (error) {
      setServerError(error instanceof ApiError ? error.message : t('request.network'));
    }
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('password.title')}
      closeOnClickOutside={false}
    >
      <form onSubmit={submit} noValidate>
        <Stack>
          {serverError && (
            <Alert color="red" icon={<IconAlertTriangle size={18} />} role="alert">
              {serverError}
            </Alert>
          )}
          <TextInput
            label={t('password.username')}
            readOnly
            withAsterisk
            {...form.getInputProps('username')}
          />
          <PasswordInput
            label={t('password.old')}
            withAsterisk
            autoComplete="current-password"
            {...form.getInputProps('oldPassword')}
          />
          <PasswordInput
            label={t('password.new')}
            description={t('validation.passwordRule')}
            withAsterisk
            autoComplete="new-password"
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput
            label={t('password.confirm')}
            withAsterisk
            autoComplete="new-password"
            {...form.getInputProps('confirmNewPassword')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t('common.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
