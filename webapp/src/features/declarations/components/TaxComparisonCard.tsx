// The duties-and-taxes estimate recorded at submit beside what customs assessed (its T
// receipt), per tax and in total; a difference over the configured share is flagged.
import { Alert, Card, Table, Text, Title } from '@mantine/core';
import { formatNumber } from '@/shared/declarations/model/format';
import { useDeclT } from '@/shared/declarations/i18n';
import type { DeclarationTaxes } from '../api/getDeclarationTaxes';

export function TaxComparisonCard({ taxes }: { taxes: DeclarationTaxes }) {
  const { t, i18n } = useDeclT();
  const lang = i18n.language;
  const money = (v: number | null | undefined) =>
    v === null || v === undefined ? '–' : formatNumber(v, lang, 2);
  const percent = (v: number | null | undefined) =>
    v === null || v === undefined ? '–' : `${formatNumber(v * 100, lang, 1)}%`;
  return (
    <Card withBorder padding="md" component="section" aria-label={t('taxes.title')}>
      <Title order={2} size="h5" mb="sm">
        {t('taxes.title')}
      </Title>
      {taxes.estimate === null || taxes.estimate === undefined ? (
        <Text size="sm" c="dimmed">
          {t('taxes.notSubmitted')}
        </Text>
      ) : (
        <>
          <Table withRowBorders={false} verticalSpacing={2} fz="sm" data-testid="tax-comparison">
            <Table.Thead>
              <Table.Tr>
                <Table.Th />
                <Table.Th>{t('taxes.estimated')}</Table.Th>
                <Table.Th>{t('taxes.assessed')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {taxes.taxes.map((row) => (
                <Table.Tr key={`${row.tax}-${row.code ?? ''}`}>
                  <Table.Td>
                    {t(`taxes.kind.${row.tax}`)}
                    {row.tax === 'other' && row.code ? ` (${row.code})` : ''}
                  </Table.Td>
                  <Table.Td>{money(row.estimated)}</Table.Td>
                  <Table.Td>{money(row.assessed)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={600}>{t('taxes.total')}</Table.Td>
                <Table.Td fw={600}>{money(taxes.estimatedTotal)}</Table.Td>
                <Table.Td fw={600}>{money(taxes.assessedTotal)}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {taxes.assessedTotal === null || taxes.assessedTotal === undefined ? (
            <Text size="xs" c="dimmed" mt="xs">
              {t('taxes.notAssessed')}
            </Text>
          ) : taxes.flagged ? (
            <Alert color="orange" p="xs" mt="xs" data-testid="tax-difference-flag">
              {t('taxes.flagged', {
                difference: money(taxes.difference),
                share: percent(taxes.differenceShare),
                limit: percent(taxes.flagShare),
              })}
            </Alert>
          ) : (
            <Text size="xs" c="dimmed" mt="xs">
              {t('taxes.within', {
                difference: money(taxes.difference),
                limit: percent(taxes.flagShare),
              })}
            </Text>
          )}
        </>
      )}
    </Card>
  );
}
