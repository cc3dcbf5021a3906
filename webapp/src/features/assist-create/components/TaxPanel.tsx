// The server's duties-and-taxes estimate beside the form: per line each tax with its rate
// and basis, the totals levied, what is not levied and why, and what is missing.
import { Alert, Paper, Stack, Table, Text } from '@mantine/core';
import { formatNumber, isEnglish } from '@/shared/declarations/model/format';
import { useAssistT } from '../i18n';
import type {
  AllowanceUse,
  TaxEstimate,
  TaxItem,
} from '@/shared/declarations/api/validateDeclaration';

function Item({ item, lang }: { item: TaxItem | null; lang: string }) {
  if (!item) return <>–</>;
  return (
    <Text size="xs" title={item.rate}>
      {formatNumber(item.amount, lang, 2)}{' '}
      <Text span c="dimmed" size="xs">
        ({item.rate})
      </Text>
    </Text>
  );
}

export function TaxPanel({
  tax,
  allowance,
}: {
  tax: TaxEstimate;
  allowance?: AllowanceUse | null;
}) {
  const { t, i18n } = useAssistT();
  const lang = i18n.language;
  const en = isEnglish(lang);
  const money = (v: number | null) => (v === null ? '–' : formatNumber(v, lang, 2));
  const personal = tax.regime === 'personal';
  return (
    <Paper withBorder p="sm" data-testid="tax-estimate">
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('tax.title')} · {t(`tax.regime.${tax.regime}`)}
        </Text>
        <Table withRowBorders={false} verticalSpacing={2} fz="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>#</Table.Th>
              <Table.Th>{t('tax.value')}</Table.Th>
              {personal ? (
                <Table.Th>{t('tax.personal')}</Table.Th>
              ) : (
                <>
                  <Table.Th>{t('tax.duty')}</Table.Th>
                  <Table.Th>{t('tax.consumption')}</Table.Th>
                  <Table.Th>{t('tax.vat')}</Table.Th>
                </>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tax.lines.map((l) => (
              <Table.Tr key={l.index}>
                <Table.Td>{l.index + 1}</Table.Td>
                <Table.Td>{money(l.valueCny)}</Table.Td>
                {personal ? (
                  <Table.Td>
                    <Item item={l.personalTax} lang={lang} />
                  </Table.Td>
                ) : (
                  <>
                    <Table.Td>
                      <Item item={l.duty} lang={lang} />
                    </Table.Td>
                    <Table.Td>
                      <Item item={l.consumptionTax} lang={lang} />
                    </Table.Td>
                    <Table.Td>
                      <Item item={l.vat} lang={lang} />
                    </Table.Td>
                  </>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="sm" data-testid="tax-total">
          {t('tax.total', { total: money(tax.total) })}
          {tax.landedCny !== null && tax.regime !== 'export'
            ? ` · ${t('tax.landed', { landed: money(tax.landedCny) })}`
            : ''}
        </Text>
        {allowance ? (
          <Text
            size="xs"
            c={allowance.thisCny > allowance.remainingCny ? 'red' : undefined}
            data-testid="tax-allowance"
          >
            {t('tax.allowance', {
              year: allowance.year,
              used: money(allowance.usedCny),
              remaining: money(allowance.remainingCny),
              limit: money(allowance.limitCny),
              order: money(allowance.thisCny),
            })}
          </Text>
        ) : null}
        {tax.exemptions.map((n) => (
          <Text key={n.code} size="xs" c="teal">
            {en ? n.en : n.zh}
          </Text>
        ))}
        {!tax.complete || tax.notes.length > 0 ? (
          <Alert color="yellow" p="xs">
            <Stack gap={2}>
              {!tax.complete && <Text size="xs">{t('tax.incomplete')}</Text>}
              {tax.notes.map((n, i) => (
                <Text key={`${n.code}-${i}`} size="xs">
                  {en ? n.en : n.zh}
                </Text>
              ))}
            </Stack>
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
