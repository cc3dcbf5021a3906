// STUB owned by the shell. The declarations engineer replaces the body of this file with
//   export { default } from '@/features/declarations/components/ExportReportDialog';
// keeping the props below (the sidebar opens it lazily with them).
import { Modal, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ExportReportDialogProps {
  opened: boolean;
  onClose: () => void;
}

export default function ExportReportDialog({ opened, onClose }: ExportReportDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('export.title')} size={800}>
      <Text c="dimmed">{t('common.comingSoon')}</Text>
    </Modal>
  );
}
