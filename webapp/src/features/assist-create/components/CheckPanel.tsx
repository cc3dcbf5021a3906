// Beside the form: the server's check (problems, each a link to its field), the class check
// with its reason, and the totals (goods value, quantity, weight by unit conversion, the
// header's weights) with the legal-quantity and net-weight helpers.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Tooltip,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconScale } from '@tabler/icons-react';
import { typeCode } from '@/shared/declarations/model/types';
import type { DeclarationType } from '@/lib/declarations';
import { formatNumber, isEnglish } from '@/shared/declarations/model/format';
import { useChangeLabel } from '@/shared/declarations/components/useChangeLabel';
import { useAssistT } from '../i18n';
import type { FormCheck } from '@/shared/declarations/api/validateDeclaration';
import type { WizardTotals } from '../model/units';
import { TaxPanel } from './TaxPanel';

const SHOWN_PROBLEMS = 8;

export function CheckPanel({
  type,
  check,
  checking,
  error,
  totals,
  onProblem,
  onSwitchType,
  onLegalQuantities,
  onUseAsNet,
}: {
  type: DeclarationType;
  check: FormCheck | undefined;
  checking: boolean;
  error: string | null;
  totals: WizardTotals;
  onProblem: (field: string) => void;
  onSwitchType: (type: DeclarationType) => void;
  onLegalQuantities: () => void;
  onUseAsNet: (kg: number) => void;
}) {
  const { t, i18n } = useAssistT();
  const label = useChangeLabel();
  const en = isEnglish(i18n.language);
  // Once each: the first problem of a field is the one listed.
  const problems = (check?.problems ?? []).filter(
    (p, i, all) => all.findIndex((x) => x.field === p.field) === i,
  );
  const warnings = check?.warnings ?? [];
  /** The server's message names its field ("Goods line 1 · HS Code: ..."): the link says it. */
  const detail = (message: string) => message.replace(/^[^:：]*[:：]\s*/, '') || message;
  const cls = check?.class;
  const direction = type.startsWith('I') ? 0 : 1;

  let status;
  if (error) status = <Alert color="red">{t('form.checkFailed', { message: error })}</Alert>;
  else if (!check)
    status = (
      <Group gap="xs">
        <Loader size="xs" />
        <Text size="sm">{t('form.checking')}</Text>
      </Group>
    );
  else if (check.valid)
    status = (
      <Alert color="teal" icon={<IconCircleCheck size={18} />} data-testid="check-status">
        {t('form.valid')}
      </Alert>
    );
  else
    status = (
      <Alert
        color={check.draftValid ? 'yellow' : 'red'}
        icon={<IconAlertTriangle size={18} />}
        data-testid="check-status"
      >
        {check.draftValid
          ? t('form.draftOnly', { count: problems.length })
          : t('form.blocked', { count: problems.length })}
      </Alert>
    );

  return (
    <Stack gap="sm">
      <Paper withBorder p="sm">
        <Group justify="space-between" mb={6}>
          <Text fw={600}>{t('form.problems')}</Text>
          {checking && check && <Loader size="xs" aria-label={t('form.checking')} />}
        </Group>
        {status}
        {problems.length > 0 && (
          <Stack gap={4} mt="xs" component="ul" style={{ paddingLeft: 16, margin: 0 }}>
            {problems.slice(0, SHOWN_PROBLEMS).map((p) => (
              <li key={`${p.field}-${p.rule}`}>
                <Anchor
                  component="button"
                  type="button"
                  size="sm"
                  c={p.blocksDraft ? 'red' : undefined}
                  onClick={() => onProblem(p.field)}
                >
                  {label(p.field)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {detail(p.message)}
                </Text>
              </li>
            ))}
            {problems.length > SHOWN_PROBLEMS && (
              <Text size="xs" c="dimmed">
                {t('form.moreProblems', { count: problems.length - SHOWN_PROBLEMS })}
              </Text>
            )}
          </Stack>
        )}
        {warnings.length > 0 && (
          <Alert color="yellow" mt="xs" p="xs" data-testid="check-warnings">
            <Stack gap={2}>
              {warnings.map((w) => (
                <Anchor
                  key={w.field}
                  component="button"
                  type="button"
                  size="sm"
                  onClick={() => onProblem(w.field)}
                >
                  {w.message}
                </Anchor>
              ))}
            </Stack>
          </Alert>
        )}
      </Paper>

      <Paper withBorder p="sm" data-testid="class-check">
        <Text fw={600} mb={6}>
          {t('class.title')}
        </Text>
        {!cls?.proposed ? (
          <Text size="sm" c="dimmed">
            {t('class.unknown')}
          </Text>
        ) : (
          <Stack gap={6}>
            <Group gap="xs">
              <Badge color={cls.agrees ? 'teal' : 'orange'}>{cls.proposed}</Badge>
              <Text size="sm" fw={500}>
                {cls.agrees
                  ? t('class.agrees', { proposed: cls.proposed })
                  : t('class.differs', { proposed: cls.proposed, declared: cls.declared })}
              </Text>
            </Group>
            <Text size="xs" c="dimmed">
              {en ? cls.reasonEn : cls.reasonZh}
            </Text>
            {!cls.agrees && (
              <Button
                size="xs"
                variant="light"
                onClick={() => onSwitchType(typeCode(cls.proposed!, direction))}
              >
                {t('class.switch', { type: typeCode(cls.proposed, direction) })}
              </Button>
            )}
          </Stack>
        )}
      </Paper>

      {check?.tax ? <TaxPanel tax={check.tax} allowance={check.allowance} /> : null}

      <Paper withBorder p="sm" data-testid="totals">
        <Text fw={600} mb={6}>
          {t('totals.title')}
        </Text>
        <Table verticalSpacing={2} fz="sm">
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>{t('totals.lines')}</Table.Td>
              <Table.Td>{totals.lines}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('totals.value')}</Table.Td>
              <Table.Td>
                {Object.entries(totals.byCurrency).length === 0
                  ? t('totals.empty')
                  : Object.entries(totals.byCurrency)
                      .map(([cur, v]) => `${formatNumber(v, i18n.language, 2)} ${cur}`)
                      .join(' + ')}
                {cls?.valueCny != null && (
                  <Text size="xs" c="dimmed">
                    {t('totals.valueCny', { value: formatNumber(cls.valueCny, i18n.language, 2) })}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('totals.quantity')}</Table.Td>
              <Table.Td>{formatNumber(totals.quantity, i18n.language)}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('totals.linesKg')}</Table.Td>
              <Table.Td>
                {totals.linesKg === null
                  ? t('totals.noWeight')
                  : t('totals.linesKgValue', {
                      kg: formatNumber(totals.linesKg, i18n.language),
                      count: totals.weighedLines,
                    })}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('totals.gross')}</Table.Td>
              <Table.Td>
                {formatNumber(totals.grossWeight, i18n.language) || t('totals.empty')}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('totals.net')}</Table.Td>
              <Table.Td>
                {formatNumber(totals.netWeight, i18n.language) || t('totals.empty')}
                {totals.netAboveGross && (
                  <Text size="xs" c="red">
                    {t('totals.netAboveGross')}
                  </Text>
                )}
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Group gap="xs" mt="xs">
          <Tooltip label={t('form.legalHint')} multiline w={280}>
            <Button
              size="xs"
              variant="light"
              leftSection={<IconScale size={14} />}
              onClick={onLegalQuantities}
            >
              {t('form.legal')}
            </Button>
          </Tooltip>
          {totals.linesKg !== null && totals.linesKg !== totals.netWeight && (
            <Button size="xs" variant="subtle" onClick={() => onUseAsNet(totals.linesKg!)}>
              {t('totals.useAsNet')}
            </Button>
          )}
        </Group>
      </Paper>
    </Stack>
  );
}
