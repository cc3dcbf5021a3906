// The exception's files: one slot per requested document (its files, or "not sent yet",
// and its own upload button), then the other files; each with download. Uploads where the
// role may upload in this status (PDF, images, xlsx; the server judges the type from the
// content and enforces the size limit, answering 4xx with the reason shown here).
import { useState } from 'react';
import { Alert, Badge, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconDownload } from '@tabler/icons-react';
import { formatDateTime } from '@/lib/dates';
import { showMessage } from '@/lib/message';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useDownloadExceptionDocument } from '../api/downloadExceptionDocument';
import { useUploadExceptionDocument } from '../api/uploadExceptionDocument';
import type { ExceptionDocument, MissingDocument } from '@/shared/clearance-exceptions/model/types';
import { MAX_UPLOAD_BYTES, useDocumentName } from '../model/documents';
import { SlotUploadButton } from './SlotUploadButton';

function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} B`;
}

export function DocumentsPanel({
  exceptionId,
  documents,
  requested = [],
  missing = [],
  canUpload,
}: {
  exceptionId: string;
  documents: ExceptionDocument[];
  /** The requested documents, one slot each (`requestedDocuments`). */
  requested?: readonly string[];
  /** The last answer's reasons for requested documents it came without. */
  missing?: readonly MissingDocument[];
  canUpload: boolean;
}) {
  const { t } = useExcT();
  const name = useDocumentName();
  const upload = useUploadExceptionDocument();
  const download = useDownloadExceptionDocument();
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState<string | null>(null);

  const onFile = async (file: File | null, slot?: string) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_UPLOAD_BYTES) {
      setError(t('detail.tooLarge', { name: file.name, max: sizeText(MAX_UPLOAD_BYTES) }));
      return;
    }
    setSending(slot ?? '');
    try {
      await upload.mutateAsync({ id: exceptionId, file, requested: slot });
      showMessage('success', t('detail.uploaded', { name: file.name }));
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setSending(null);
    }
  };

  const uploadButton = (slot?: string) => (
    <SlotUploadButton
      slot={slot}
      slotName={slot ? name(slot) : undefined}
      hasSlots={requested.length > 0}
      uploading={upload.isPending ? sending : null}
      onFile={(f, s) => void onFile(f, s)}
    />
  );

  const fileRows = (files: ExceptionDocument[]) =>
    files.map((d) => (
      <Group key={d.documentId} gap="xs" wrap="nowrap" justify="space-between">
        <div style={{ minWidth: 0 }}>
          <Text size="sm" fw={500} style={{ wordBreak: 'break-all' }}>
            {d.fileName}
          </Text>
          <Text size="xs" c="dimmed">
            {sizeText(d.size)} · {formatDateTime(d.uploadedAt)}
            {d.uploadedBy ? ` · ${d.uploadedBy}` : ''}
          </Text>
        </div>
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
      </Group>
    ));

  const others = documents.filter((d) => !d.requested || !requested.includes(d.requested));

  return (
    <Stack gap="xs">
      {requested.length > 0 && (
        <Table withTableBorder aria-label={t('detail.requestedFiles')}>
          <Table.Tbody>
            {requested.map((slot) => {
              const files = documents.filter((d) => d.requested === slot);
              return (
                <Table.Tr key={slot} data-slot={slot}>
                  <Table.Td w="35%" style={{ verticalAlign: 'top' }}>
                    <Text size="sm" fw={600}>
                      {name(slot)}
                    </Text>
                    {files.length > 0 ? (
                      <Badge color="teal" variant="light" leftSection={<IconCheck size={12} />}>
                        {t('detail.slotSent')}
                      </Badge>
                    ) : (
                      <Badge color="orange" variant="light">
                        {t('detail.slotMissing')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={4}>
                      {fileRows(files)}
                      {files.length === 0 &&
                        missing
                          .filter((m) => m.document === slot)
                          .map((m) => (
                            <Text key={m.document} size="sm">
                              <Text span fw={600}>
                                {t('detail.missingShown')}:
                              </Text>{' '}
                              {m.reason}
                            </Text>
                          ))}
                      {canUpload && <Group>{uploadButton(slot)}</Group>}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {others.length === 0 ? (
        requested.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('detail.noFiles')}
          </Text>
        )
      ) : (
        <Stack gap={4} aria-label={t('detail.files')}>
          {requested.length > 0 && (
            <Text size="sm" fw={600}>
              {t('detail.otherFiles')}
            </Text>
          )}
          {fileRows(others)}
        </Stack>
      )}
      {canUpload && (
        <Group gap="xs">
          {uploadButton()}
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
