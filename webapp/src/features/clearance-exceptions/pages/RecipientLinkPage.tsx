// /temporarily?token=... (and /temporarily/detail, the same page): a notice's recipient,
// without an account, sees what one clearance exception asks, uploads the files and sends
// the answer. The token is the only credential and is good for this exception only; an
// invalid, expired or used link gets a page that says which.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Button,
  Checkbox,
  Code,
  Container,
  FileButton,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowRight, IconCircleCheck, IconLinkOff, IconUpload } from '@tabler/icons-react';
import { formatDateTime } from '@/lib/dates';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useConfirmLink, useExceptionLink, useUploadLinkDocument } from '../api/exceptionLink';
import { ACCEPTED_TYPES, MAX_UPLOAD_BYTES } from '../components/DocumentsPanel';
import { requestedDocumentFlag } from '../model/form';
import { refusal } from '../model/link';

function Notice({ kind, text }: { kind: 'ok' | 'refused'; text: string }) {
  return (
    <Container size="sm" py="xl">
      <Alert
        color={kind === 'ok' ? 'green' : 'orange'}
        icon={kind === 'ok' ? <IconCircleCheck /> : <IconLinkOff />}
        data-testid="link-notice"
      >
        {text}
      </Alert>
    </Container>
  );
}

export default function RecipientLinkPage() {
  const { t } = useExcT();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const view = useExceptionLink(token);
  const upload = useUploadLinkDocument(token);
  const confirm = useConfirmLink(token);
  const [agree, setAgree] = useState(false);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (!token) return <Notice kind="refused" text={t('link.noToken')} />;
  if (confirm.isSuccess) return <Notice kind="ok" text={t('link.submitted')} />;
  if (view.isPending) {
    return (
      <Container size="sm" py="xl">
        <Group>
          <Loader size="sm" />
          <Text>{t('link.loading')}</Text>
        </Group>
      </Container>
    );
  }
  if (view.isError) {
    const kind = refusal(view.error);
    return (
      <Notice
        kind="refused"
        text={kind ? t(`link.${kind}`) : t('link.failed', { message: view.error.message })}
      />
    );
  }
  const data = view.data;
  const hasChanges = data.proposedChanges.length > 0;

  const onFile = async (file: File | null) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_UPLOAD_BYTES) {
      setError(t('detail.tooLarge', { name: file.name, max: '3 MB' }));
      return;
    }
    try {
      await upload.mutateAsync(file);
    } catch (e) {
      const kind = refusal(e);
      setError(kind ? t(`link.${kind}`) : e instanceof Error ? e.message : String(e));
    }
  };

  const onSubmit = async () => {
    setError(null);
    try {
      await confirm.mutateAsync({
        confirmChanges: hasChanges && agree,
        note: note.trim() || undefined,
      });
    } catch (e) {
      const kind = refusal(e);
      setError(kind ? t(`link.${kind}`) : e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Container size="sm" py="xl">
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md">
          <Title order={2} size="h3">
            {t('link.title')}
          </Title>
          <Text size="sm">{t('link.intro', { trackingNumber: data.trackingNumber ?? '-' })}</Text>
          {data.expiresAt && (
            <Text size="xs" c="dimmed">
              {t('link.expires', { at: formatDateTime(data.expiresAt) })}
            </Text>
          )}
          <div>
            <Title order={3} size="h6">
              {t('detail.documents')}
            </Title>
            <List size="sm" aria-label={t('detail.documents')}>
              {data.requested.map((code) => {
                const flag = requestedDocumentFlag(code);
                return <List.Item key={code}>{flag ? t(`document.${flag}`) : code}</List.Item>;
              })}
              {data.otherDocuments.map((d, i) => (
                <List.Item key={`other-${i}`}>{d}</List.Item>
              ))}
            </List>
          </div>
          {hasChanges && (
            <div>
              <Title order={3} size="h6">
                {t('detail.changes')}
              </Title>
              <List size="sm" aria-label={t('detail.changes')}>
                {data.proposedChanges.map((c) => (
                  <List.Item key={c.field}>
                    <Group gap={6} wrap="wrap">
                      <Text size="sm" fw={500}>
                        {t(`change.${c.kind}`)}
                      </Text>
                      <Code>{c.old || t('common.none')}</Code>
                      <IconArrowRight size={12} aria-label="→" />
                      <Code>{c.new}</Code>
                    </Group>
                  </List.Item>
                ))}
              </List>
            </div>
          )}
          <div>
            <Title order={3} size="h6">
              {t('link.sent')}
            </Title>
            {data.documents.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('detail.noFiles')}
              </Text>
            ) : (
              <List size="sm" aria-label={t('link.sent')}>
                {data.documents.map((d) => (
                  <List.Item key={d.id}>{d.fileName}</List.Item>
                ))}
              </List>
            )}
            <FileButton onChange={onFile} accept={ACCEPTED_TYPES}>
              {(props) => (
                <Button
                  {...props}
                  mt="xs"
                  variant="light"
                  leftSection={<IconUpload size={16} />}
                  loading={upload.isPending}
                >
                  {t('detail.upload')}
                </Button>
              )}
            </FileButton>
            <Text size="xs" c="dimmed" mt={4}>
              {t('detail.uploadHint')}
            </Text>
          </div>
          {hasChanges && (
            <Checkbox
              label={t('link.confirmChanges')}
              checked={agree}
              onChange={(e) => setAgree(e.currentTarget.checked)}
            />
          )}
          <Textarea
            label={t('link.note')}
            value={note}
            maxLength={500}
            autosize
            minRows={2}
            onChange={(e) => setNote(e.currentTarget.value)}
          />
          {error && (
            <Alert color="red" data-testid="link-error">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button onClick={onSubmit} loading={confirm.isPending}>
              {t('link.submit')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
