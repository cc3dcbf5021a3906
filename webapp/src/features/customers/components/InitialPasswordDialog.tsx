// The initial password of a new login, shown once: the server keeps only its hash, so the
// staff member copies it now and hands it over (the user must set their own at first sign-in).
import { ActionIcon, Alert, Button, Code, Group, Modal, Stack, Text, Tooltip } from '@mantine/core';
import { CopyButton } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { GeneratedLogin } from '@/shared/customers/model/types';

export function InitialPasswordDialog({
  login,
  onClose,
}: {
  login: GeneratedLogin;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('customers.password.title')}
      closeOnClickOutside={false}
    >
      <Stack>
        <Alert color="orange" icon={<IconAlertTriangle size={18} />}>
          {t('customers.password.warning')}
        </Alert>
        <Text size="sm">
          {t('customers.password.login')}: <b>{login.username}</b>
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Text size="sm">{t('customers.password.label')}:</Text>
          <Code fz="md" data-testid="initial-password" aria-label={t('customers.password.label')}>
            {login.initialPassword}
          </Code>
          <CopyButton value={login.initialPassword} timeout={2000}>
            {({ copied, copy }) => (
              <Tooltip
                label={copied ? t('customers.password.copied') : t('customers.password.copy')}
              >
                <ActionIcon
                  variant="subtle"
                  color={copied ? 'teal' : 'gray'}
                  onClick={copy}
                  aria-label={t('customers.password.copy')}
                >
                  {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                </ActionIcon>
              </Tooltip>
            )}
          </CopyButton>
        </Group>
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('customers.password.done')}</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
