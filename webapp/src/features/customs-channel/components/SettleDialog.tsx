// Settle a receipt anomaly: attach it to the declaration it belongs to (found by tracking
// number) or dismiss it, with a note. The server's refusal is shown in place.
import { useState } from 'react';
import {
  Alert,
  Button,
  Group,
  Modal,
  Radio,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { getDeclarations } from '@/shared/declarations/api/getDeclarations';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import { StatusWithReceipt } from '@/shared/declarations/components/StatusWithReceipt';
import { useSettleCustomsAnomaly, type SettleBody } from '../api/settleCustomsAnomaly';
import type { CustomsAnomaly } from '../api/getCustomsAnomalies';

export const MAX_NOTE = 500;

export interface SettleDialogProps {
  anomaly: CustomsAnomaly;
  action: 'attach' | 'dismiss';
  onClose: () => void;
  onDone: () => void;
}

export function SettleDialog({ anomaly, action, onClose, onDone }: SettleDialogProps) {
  const { t } = useTranslation();
  const settle = useSettleCustomsAnomaly();
  const [tracking, setTracking] = useState('');
  const [found, setFound] = useState<DeclarationSummary[] | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  const [finding, setFinding] = useState(false);
  const [note, setNote] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const find = async () => {
    const number = tracking.trim();
    if (!number) return;
    setFinding(true);
    setProblem(null);
    try {
      const page = await getDeclarations({ trackingNumber: number, pageNo: 1, pageSize: 10 });
      setFound(page.records);
      setChosen(page.records.length === 1 ? page.records[0].id : null);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setFinding(false);
    }
  };

  const submit = async () => {
    if (action === 'attach' && !chosen) return setProblem(t('customs.channel.chooseDeclaration'));
    if (!note.trim()) return setProblem(t('customs.channel.noteRequired'));
    const body: SettleBody = {
      action,
      note: note.trim(),
      declarationId: action === 'attach' ? chosen : null,
    };
    setProblem(null);
    try {
      await settle.mutateAsync({ id: anomaly.id, body });
      onDone();
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      closeOnClickOutside={false}
      title={
        action === 'attach'
          ? t('customs.channel.settleTitleAttach')
          : t('customs.channel.settleTitleDismiss')
      }
    >
      <Stack>
        <Text size="sm">
          {anomaly.channel} · {anomaly.copNo} · {anomaly.reason}
        </Text>
        {action === 'attach' && (
          <>
            <Group align="flex-end" wrap="nowrap">
              <TextInput
                label={t('customs.channel.trackingNumber')}
                description={t('customs.channel.trackingHint')}
                value={tracking}
                onChange={(e) => setTracking(e.currentTarget.value)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    void find();
                  }
                }}
                style={{ flex: 1 }}
                data-autofocus
              />
              <Button
                variant="default"
                leftSection={<IconSearch size={14} />}
                loading={finding}
                onClick={() => void find()}
              >
                {t('customs.channel.find')}
              </Button>
            </Group>
            {found && found.length === 0 && (
              <Text size="sm" c="orange">
                {t('customs.channel.notFound')}
              </Text>
            )}
            {found && found.length > 0 && (
              <Radio.Group value={chosen} onChange={setChosen}>
                <Stack gap={6}>
                  {found.map((d) => (
                    <Radio
                      key={d.id}
                      value={d.id}
                      label={
                        <Group gap={6} wrap="wrap">
                          <Text size="sm" fw={500}>
                            {d.trackingNumber}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {d.username}
                          </Text>
                          <StatusWithReceipt
                            status={d.status}
                            customsReceipt={d.customsReceipt}
                            movedByHand={d.movedByHand}
                          />
                        </Group>
                      }
                    />
                  ))}
                </Stack>
              </Radio.Group>
            )}
          </>
        )}
        <Textarea
          label={t('customs.channel.note')}
          withAsterisk
          autosize
          minRows={2}
          maxLength={MAX_NOTE}
          value={note}
          onChange={(e) => setNote(e.currentTarget.value)}
          data-autofocus={action === 'dismiss' || undefined}
        />
        {problem && (
          <Alert color="red" variant="light" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            color={action === 'dismiss' ? 'red' : undefined}
            loading={settle.isPending}
            onClick={() => void submit()}
          >
            {action === 'attach' ? t('customs.channel.attach') : t('customs.channel.dismiss')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
