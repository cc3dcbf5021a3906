// /temporarily?token=... (and /temporarily/detail, the same page): a notice's recipient,
// without an account, sees what one clearance exception asks, uploads the files and sends
// the answer. The token is the only credential and is good for this exception only; an
// invalid, expired or used link gets a page that says which.
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Container,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { IconArrowRight, IconCircleCheck, IconLinkOff } from '@tabler/icons-react';
import { formatDateTime } from '@/lib/dates';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useConfirmLink, useExceptionLink, useUploadLinkDocument } from '../api/exceptionLink';
import { SlotUploadButton } from '../components/SlotUploadButton';
import { MAX_UPLOAD_BYTES, useDocumentName } from '../model/documents';
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
  const nameOf = useDocumentName();
  const upload = useUploadLinkDocument(token);
  const confirm = useConfirmLink(token);
  const [agree, setAgree] = useState(false);
  const [note, setNote] = useState('');
  const [reasons, setReasons] = useState<Record<string, string>>({});
  const [sending, setSending] = useState<string | null>(null);
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
  // One slot per requested document: the codes, then other documents by their text.
  const slots = [...data.requested, ...data.otherDocuments.filter((d) => d.trim() !== '')];
  const filesOf = (slot: string) => data.documents.filter((d) => d.requested === slot);
  const unsupplied = slots.filter((slot) => filesOf(slot).length === 0);
  const others = data.documents.filter((d) => !d.requested || !slots.includes(d.requested));

  const onFile = async (file: File | null, requested?: string) => {
    if (!file) return;
    setError(null);
    if (file.size > MAX_UPLOAD_BYTES) {
      setError(t('detail.tooLarge', { name: file.name, max: '3 MB' }));
      return;
    }
    setSending(requested ?? '');
    try {
      await upload.mutateAsync({ file, requested });
    } catch (e) {
      const kind = refusal(e);
      setError(kind ? t(`link.${kind}`) : e instanceof Error ? e.message : String(e));
    } finally {
      setSending(null);
    }
  };

  const uploadButton = (slot?: string) => (
    <SlotUploadButton
      slot={slot}
      slotName={slot ? nameOf(slot) : undefined}
      hasSlots={slots.length > 0}
      uploading={upload.isPending ? sending : null}
      onFile={(f, s) => void onFile(f, s)}
    />
  );

  const onSubmit = async () => {
    setError(null);
    const blank = unsupplied.find((slot) => !(reasons[slot] ?? '').trim());
    if (blank) {
      setError(t('detail.missingReasonRequired', { name: nameOf(blank) }));
      return;
    }
    try {
      await confirm.mutateAsync({
        confirmChanges: hasChanges && agree,
        note: note.trim() || undefined,
        ...(unsupplied.length > 0
          ? {
              missing: unsupplied.map((slot) => ({
                document: slot,
                reason: (reasons[slot] ?? '').trim(),
              })),
            }
          : {}),
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
              {t('detail.requestedFiles')}
            </Title>
            <Stack gap="xs" mt={4} aria-label={t('detail.requestedFiles')}>
              {slots.map((slot) => {
                const files = filesOf(slot);
                return (
                  <Paper key={slot} withBorder p="xs" data-slot={slot}>
                    <Group justify="space-between" wrap="wrap" gap="xs">
                      <Text size="sm" fw={600}>
                        {nameOf(slot)}
                      </Text>
                      <Badge color={files.length > 0 ? 'teal' : 'orange'} variant="light">
                        {files.length > 0 ? t('detail.slotSent') : t('detail.slotMissing')}
                      </Badge>
                    </Group>
                    {files.map((d) => (
                      <Text key={d.id} size="sm" style={{ wordBreak: 'break-all' }}>
                        {d.fileName}
                      </Text>
                    ))}
                    <Group mt={4}>{uploadButton(slot)}</Group>
                    {files.length === 0 && (
                      <Textarea
                        mt={4}
                        label={t('detail.missingReason', { name: nameOf(slot) })}
                        description={t('link.missingHint')}
                        autosize
                        minRows={1}
                        maxLength={500}
                        value={reasons[slot] ?? ''}
                        onChange={(e) => {
                          const value = e.currentTarget.value;
                          setReasons((r) => ({ ...r, [slot]: value }));
                        }}
                      />
                    )}
                  </Paper>
                );
              })}
            </Stack>
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
              {slots.length > 0 ? t('detail.otherFiles') : t('link.sent')}
            </Title>
            {others.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('detail.noFiles')}
              </Text>
            ) : (
              <List size="sm" aria-label={t('link.sent')}>
                {others.map((d) => (
                  <List.Item key={d.id}>{d.fileName}</List.Item>
                ))}
              </List>
            )}
            <Group mt="xs">{uploadButton()}</Group>
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
