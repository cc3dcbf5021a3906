import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { useDeclT } from '@/shared/declarations/i18n';

/** The 409 VERSION_CONFLICT message with its reload button, inline. */
export function VersionConflictAlert({ onReload }: { onReload: () => void }) {
  const { t } = useDeclT();
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={20} />}
      title={t('conflict.title')}
      role="alert"
    >
      <Stack gap="xs">
        <Text size="sm">{t('conflict.text')}</Text>
        <Group>
          <Button size="xs" leftSection={<IconRefresh size={14} />} onClick={onReload}>
            {t('conflict.reload')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/** The same as a dialog (list rows). */
export function VersionConflictModal({
  opened,
  onClose,
  onReload,
}: {
  opened: boolean;
  onClose: () => void;
  onReload: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} withCloseButton={false} size="md">
      <VersionConflictAlert onReload={onReload} />
    </Modal>
  );
}
