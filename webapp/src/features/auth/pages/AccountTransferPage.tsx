// /account-transfer (10004): the account moved to a new login. Shows the new username, sets
// its password (POST /api/v1/account/transfer/confirm), then signs in to the new login, or
// sends to the login page with the new username filled in.
import { useMemo } from 'react';
import { Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useConfirmTransfer } from '@/features/auth/api/confirmTransfer';
import { flowStorage } from '@/shared/auth/flowStorage';
import { signInAfterFlow } from '@/features/auth/signIn';
import { AuthLayout } from '@/features/auth/components/AuthLayout';
import { FlowProblem } from '@/features/auth/components/FlowProblem';
import {
  NewPasswordForm,
  type NewPasswordValues,
} from '@/features/auth/components/NewPasswordForm';

export default function AccountTransferPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const confirm = useConfirmTransfer();
  const flow = useMemo(() => flowStorage.transferFlow(), []);

  if (!flow) {
    return (
      <AuthLayout subtitle={t('identity.transfer.title')}>
        <FlowProblem
          title={t('identity.transfer.noFlowTitle')}
          links={[{ to: '/login-c', label: t('identity.password.backToLogin') }]}
        >
          {t('identity.transfer.noFlow')}
        </FlowProblem>
      </AuthLayout>
    );
  }
  const current = flow;

  async function submit(values: NewPasswordValues) {
    const done = await confirm.mutateAsync({
      transferAuthorization: current.transferAuthorization,
      ...values,
    });
    flowStorage.clearTransferFlow();
    const username = done?.username || current.newUsername;
    const signedIn = await signInAfterFlow(
      username,
      values.newPassword,
      'identity.login.transferred',
    );
    navigate(signedIn ? '/' : current.from, { replace: true });
  }

  return (
    <AuthLayout subtitle={t('identity.transfer.title')}>
      <Stack>
        <Text size="sm">{t('identity.transfer.intro')}</Text>
        <TextInput
          label={t('identity.transfer.newUsername')}
          value={current.newUsername}
          readOnly
        />
        <NewPasswordForm
          owner={{ username: current.newUsername }}
          submitLabel={t('identity.transfer.submit')}
          onSubmit={submit}
        />
      </Stack>
    </AuthLayout>
  );
}
