// Step 5: what will be saved, the check's verdict, and "save as draft" or "submit".
import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconDeviceFloppy, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { DeclarationType } from '@/lib/declarations';
import type { DeclarationData } from '@/shared/declarations/model/types';
import { formatNumber, isEnglish } from '@/shared/declarations/model/format';
import { goodsTotals } from '@/shared/declarations/model/validation';
import { useAssistT } from '../i18n';
import type { FormCheck } from '@/shared/declarations/api/validateDeclaration';

export function ReviewStep({
  customer,
  type,
  data,
  check,
  busy,
  canSubmit,
  onSaveDraft,
  onSubmit,
}: {
  customer: string;
  type: DeclarationType;
  data: DeclarationData;
  check: FormCheck | undefined;
  busy: 'draft' | 'submit' | null;
  canSubmit: boolean;
  onSaveDraft: () => void;
  onSubmit: () => void;
}) {
  const { t } = useAssistT();
  const { t: tg, i18n } = useTranslation();
  const lines = data.declarationGoodsInfo ?? [];
  const totals = goodsTotals(lines, data.currencyCode);
  const value = Object.entries(totals.byCurrency)
    .map(([cur, v]) => `${formatNumber(v, i18n.language, 2)} ${cur}`)
    .join(' + ');
  const draftOk = check?.draftValid ?? false;
  const submitOk = check?.valid ?? false;
  const cls = check?.class;
  const rows: [string, string][] = [
    [t('review.customer'), customer],
    [t('review.type'), `${type} · ${tg(`declarationType.${type}`, { defaultValue: type })}`],
    [t('review.tracking'), data.trackingNumber ?? ''],
    [t('review.lines'), String(lines.length)],
    [t('review.value'), value || '—'],
  ];
  return (
    <Stack maw={720}>
      <Text fw={600}>{t('review.title')}</Text>
      <Table withTableBorder verticalSpacing={4}>
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w={200}>{k}</Table.Th>
              <Table.Td>{v}</Table.Td>
            </Table.Tr>
          ))}
          {cls?.proposed && (
            <Table.Tr>
              <Table.Th>{t('class.title')}</Table.Th>
              <Table.Td>
                {cls.agrees
                  ? t('class.agrees', { proposed: cls.proposed })
                  : t('class.differs', { proposed: cls.proposed, declared: cls.declared })}
                <Text size="xs" c="dimmed">
                  {isEnglish(i18n.language) ? cls.reasonEn : cls.reasonZh}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
      {check && !check.valid && (
        <Alert color={draftOk ? 'yellow' : 'red'}>
          {draftOk
            ? t('form.draftOnly', { count: check.problems.length })
            : t('form.blocked', { count: check.problems.length })}
        </Alert>
      )}
      <Group>
        <Button
          variant="light"
          leftSection={<IconDeviceFloppy size={16} />}
          onClick={onSaveDraft}
          loading={busy === 'draft'}
          disabled={busy !== null || !draftOk}
          title={draftOk ? undefined : t('review.draftBlocked')}
        >
          {t('review.saveDraft')}
        </Button>
        {canSubmit && (
          <Button
            leftSection={<IconSend size={16} />}
            onClick={onSubmit}
            loading={busy === 'submit'}
            disabled={busy !== null || !submitOk}
            title={submitOk ? undefined : t('review.submitBlocked')}
          >
            {t('review.submit')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
