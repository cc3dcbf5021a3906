// The exception's files: list with download, and an upload button where the role may
// upload in this status (PDF, images, xlsx; the server judges the type from the content
// and enforces the size limit, answering 4xx with the reason shown here).
import { useState } from 'react';
import { Alert, Button, FileButton, Group, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconDownload, IconUpload } from '@tabler/icons-react';
import { formatDateTime } from '@/lib/dates';
import { showMessage } from '@/lib/message';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useDownloadExceptionDocument } from '../api/downloadExceptionDocument';
import { useUploadExceptionDocument } from '../api/uploadExceptionDocument';
import type { ExceptionDocument } from '@/shared/clearance-exceptions/model/types';

export const ACCEPTED_TYPES =
  'application/pdf,image/png,image/jpeg,image/gif,image/webp,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,.pdf,.png,.jpg,.jpeg,.xlsx';

/** The server's upload limit (3 MiB); a larger file is refused before it is sent. */
export const MAX_UPLOAD_BYTES = 3 * 1024 * 1024;

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

export function DocumentsPanel({
  exceptionId,
  documents,
  canUpload,
}: {
  exceptionId: string;
  documents: ExceptionDocument[];
  canUpload: boolean;
}) {
  const { t } = useExcT();
  const upload = useUploadExceptionDocument();
  const download = useDownloadExceptionDocument();
  const [error, setError] = useState<string | null>(null);

  const onFile = async (file: File | null) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_UPLOAD_BYTES) {
      setError(t('detail.tooLarge', { name: file.name, max: sizeText(MAX_UPLOAD_BYTES) }));
      return;
    }
    try {
      await upload.mutateAsync({ id: exceptionId, file });
      showMessage('success', t('detail.uploaded', { name: file.name }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Stack gap="xs">
      {documents.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('detail.noFiles')}
        </Text>
      ) : (
        <Table withTableBorder aria-label={t('detail.files')}>
          <Table.Tbody>
            {documents.map((d) => (
              <Table.Tr key={d.documentId}>
                <Table.Td>
                  <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
                    {d.fileName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {sizeText(d.size)} · {formatDateTime(d.uploadedAt)}
                    {d.uploadedBy ? ` · ${d.uploadedBy}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td w={120}>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconDownload size={14} />}
                    aria-label={`${t('detail.download')} ${d.fileName}`}
                    onClick={() =>
                      void download
                        .mutateAsync({
                          exceptionId,
                          documentId: d.documentId,
                          fileName: d.fileName,
                        })
                        .catch(() => undefined)
                    }
                  >
                    {t('detail.download')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canUpload && (
        <Group gap="xs">
          <FileButton onChange={(f) => void onFile(f)} accept={ACCEPTED_TYPES}>
            {(props) => (
              <Button
                {...props}
                variant="light"
                leftSection={<IconUpload size={16} />}
                loading={upload.isPending}
              >
                {t('detail.upload')}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {t('detail.uploadHint')}
          </Text>
        </Group>
      )}
      {error && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {error}
        </Alert>
      )}
    </Stack>
  );
}
