// Step 1: the customer, the declaration type, the documents (dropped) and/or pasted text.
import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Loader,
  Progress,
  Select,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import '@mantine/dropzone/styles.css';
import { IconFileText, IconUpload, IconX } from '@tabler/icons-react';
import { CustomerPicker } from '@/shared/customers/components/CustomerPicker';
import { DECLARATION_TYPES } from '@/lib/declarations';
import { ApiError } from '@/lib/request';
import { useAiT } from '../i18n';
import { useProposeAiDraft } from '../api/aiDrafts';
import type { AiDraft } from '../model/types';

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES = 10;

export function UploadStep({ onProposed }: { onProposed: (draft: AiDraft) => void }) {
  const { t } = useAiT();
  const [customerId, setCustomerId] = useState('');
  const [type, setType] = useState<string>('IC');
  const [files, setFiles] = useState<File[]>([]);
  const [text, setText] = useState('');
  const [rejected, setRejected] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const propose = useProposeAiDraft();

  const submit = () => {
    if (!customerId) return setProblem(t('needCustomer'));
    if (files.length === 0 && !text.trim()) return setProblem(t('needInput'));
    setProblem(null);
    propose.mutate(
      { customerId, declarationType: type, files, text },
      {
        onSuccess: onProposed,
        onError: (e) => {
          const fieldMessages =
            e instanceof ApiError ? e.fieldErrors.map((f) => f.message).join('; ') : '';
          setProblem(t('failed', { message: fieldMessages || e.message }));
        },
      },
    );
  };

  return (
    <Card withBorder p="lg">
      <Stack>
        <Text size="sm" c="dimmed">
          {t('intro')}
        </Text>
        <Group grow align="flex-start">
          <CustomerPicker
            label={t('customer')}
            placeholder={t('customerPlaceholder')}
            value={customerId}
            onChange={(v) => setCustomerId(v)}
            required
          />
          <Select
            label={t('declarationType')}
            data={DECLARATION_TYPES.map((d) => ({ value: d, label: `${d} · ${t(`type.${d}`)}` }))}
            value={type}
            onChange={(v) => v && setType(v)}
            allowDeselect={false}
            required
          />
        </Group>
        <Dropzone
          onDrop={(dropped) => {
            setRejected([]);
            setFiles((prev) => [...prev, ...dropped].slice(0, MAX_FILES));
          }}
          onReject={(r) => setRejected(r.map((f) => f.file.name))}
          maxSize={MAX_FILE_BYTES}
          maxFiles={MAX_FILES}
          disabled={propose.isPending}
          data-testid="ai-dropzone"
        >
          <Group justify="center" gap="md" mih={90} style={{ pointerEvents: 'none' }}>
            <Dropzone.Accept>
              <IconUpload size={36} stroke={1.5} />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={36} stroke={1.5} />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <IconFileText size={36} stroke={1.5} />
            </Dropzone.Idle>
            <div>
              <Text size="md">{t('drop')}</Text>
              <Text size="xs" c="dimmed">
                {t('dropHint')}
              </Text>
            </div>
          </Group>
        </Dropzone>
        {rejected.length > 0 && (
          <Text size="sm" c="red">
            {t('rejectedFiles', { names: rejected.join(', ') })}
          </Text>
        )}
        {files.length > 0 && (
          <Stack gap={4} aria-label="files">
            {files.map((f, i) => (
              <Group key={`${f.name}-${i}`} gap="xs">
                <IconFileText size={16} />
                <Text size="sm">{f.name}</Text>
                <Text size="xs" c="dimmed">
                  {(f.size / 1024).toFixed(1)} KB
                </Text>
                <ActionIcon
                  size="sm"
                  variant="subtle"
                  color="gray"
                  aria-label={t('removeFile', { name: f.name })}
                  onClick={() => setFiles((prev) => prev.filter((_, j) => j !== i))}
                  disabled={propose.isPending}
                >
                  <IconX size={14} />
                </ActionIcon>
              </Group>
            ))}
          </Stack>
        )}
        <Textarea
          label={t('text')}
          autosize
          minRows={3}
          maxRows={12}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          disabled={propose.isPending}
        />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        {propose.isPending && (
          <Stack gap={4} role="status">
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{t('reading')}</Text>
            </Group>
            <Progress value={100} animated striped aria-label={t('reading')} />
          </Stack>
        )}
        <Group justify="flex-end">
          <Button
            onClick={submit}
            loading={propose.isPending}
            leftSection={<IconUpload size={16} />}
          >
            {t('read')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
