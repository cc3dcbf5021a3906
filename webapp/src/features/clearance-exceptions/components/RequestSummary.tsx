// What an exception asks for: the requested documents, other documents, the proposed
// changes old -> new, the exception details, the summary and remarks.
import { Code, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { requestedItems } from '../model/form';
import type { ExceptionFormData, ProposedChange } from '@/shared/clearance-exceptions/model/types';

export function RequestSummary({
  data,
  proposedChanges,
}: {
  data: Partial<ExceptionFormData>;
  proposedChanges: readonly ProposedChange[];
}) {
  const { t } = useExcT();
  const asked = requestedItems(data, proposedChanges);
  const details = data.exceptionDetails ?? [];
  return (
    <Stack gap="sm">
      {data.exceptionSummary && (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="exception-summary">
          {data.exceptionSummary}
        </Text>
      )}
      <div>
        <Title order={3} size="h6">
          {t('detail.documents')}
        </Title>
        {asked.documents.length + asked.otherDocuments.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('detail.nothingAsked')}
          </Text>
        ) : (
          <List size="sm" aria-label={t('detail.documents')}>
            {asked.documents.map((d) => (
              <List.Item key={d}>{t(`document.${d}`)}</List.Item>
            ))}
            {asked.otherDocuments.map((d, i) => (
              <List.Item key={`other-${i}`}>{d}</List.Item>
            ))}
          </List>
        )}
      </div>
      {asked.changes.length > 0 && (
        <div>
          <Title order={3} size="h6">
            {t('detail.changes')}
          </Title>
          <List size="sm" aria-label={t('detail.changes')}>
            {asked.changes.map((c) => (
              <List.Item key={c.field}>
                <Group gap={6} wrap="wrap">
                  <Text size="sm" fw={500}>
                    {t(`change.${c.field}`)}
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
      {details.length > 0 && (
        <div>
          <Title order={3} size="h6">
            {t('detail.details')}
          </Title>
          <Table withTableBorder>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('form.exceptionCode')}</Table.Th>
                <Table.Th>{t('form.exceptionDescription')}</Table.Th>
                <Table.Th>{t('form.exceptionHandling')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {details.map((d, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{d.exceptionCode}</Table.Td>
                  <Table.Td>{d.exceptionDescription}</Table.Td>
                  <Table.Td>{d.exceptionHandling}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </div>
      )}
      {(data.otherDescriptions ?? []).length > 0 && (
        <div>
          <Title order={3} size="h6">
            {t('detail.otherDescriptions')}
          </Title>
          <List size="sm">
            {(data.otherDescriptions ?? []).map((d, i) => (
              <List.Item key={i}>{d}</List.Item>
            ))}
          </List>
        </div>
      )}
    </Stack>
  );
}
