// Step 3: where the form starts. A blank form; the type's template (its defaults with the
// parties of the customer's last declaration of the type); or a copy of one of the
// customer's declarations of the type, found among the latest or by tracking number.
import { useState } from 'react';
import { Alert, Button, Group, Radio, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { DeclarationType } from '@/lib/declarations';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import { formatMoney } from '@/shared/declarations/model/format';
import { useAssistT } from '../i18n';
import type { StartKind } from '../model/start';
import { useCustomerDeclarations } from '../api/customerDeclarations';

export function StartStep({
  type,
  customerId,
  start,
  onStart,
  copyFrom,
  onCopyFrom,
}: {
  type: DeclarationType;
  customerId?: string;
  start: StartKind;
  onStart: (kind: StartKind) => void;
  copyFrom: DeclarationSummary | null;
  onCopyFrom: (d: DeclarationSummary) => void;
}) {
  const { t, i18n } = useAssistT();
  const [search, setSearch] = useState('');
  const [tracking] = useDebouncedValue(search, 300);
  const latest = useCustomerDeclarations(type, customerId);
  const found = useCustomerDeclarations(type, customerId, tracking);
  const last = latest.data?.records[0];
  const rows = found.data?.records ?? [];

  return (
    <Stack>
      <Radio.Group label={t('start.label')} value={start} onChange={(v) => onStart(v as StartKind)}>
        <Stack gap="xs" mt="xs">
          <Radio value="blank" label={t('start.blank')} description={t('start.blankHint')} />
          <Radio
            value="template"
            label={t('start.template')}
            description={t('start.templateHint')}
          />
          <Radio value="copy" label={t('start.copy')} description={t('start.copyHint')} />
        </Stack>
      </Radio.Group>

      {start === 'template' && (
        <Alert color="blue">
          {last
            ? t('start.templateFrom', { tracking: last.trackingNumber ?? last.id })
            : t('start.templateDefaults')}
        </Alert>
      )}

      {start === 'copy' && (
        <Stack gap="xs">
          <TextInput
            label={t('start.search')}
            placeholder={t('start.searchPlaceholder')}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
            maw={360}
          />
          <Text size="sm" fw={500}>
            {tracking.trim() ? t('start.search') : t('start.recent', { type })}
          </Text>
          {rows.length === 0 && !found.isFetching ? (
            <Text size="sm" c="dimmed">
              {t('start.none')}
            </Text>
          ) : (
            <Table withTableBorder verticalSpacing={4} maw={800}>
              <Table.Tbody>
                {rows.map((d) => (
                  <Table.Tr
                    key={d.id}
                    bg={copyFrom?.id === d.id ? 'var(--mantine-color-blue-light)' : undefined}
                  >
                    <Table.Td>{d.trackingNumber}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={d.status} />
                    </Table.Td>
                    <Table.Td>{d.consigneeName}</Table.Td>
                    <Table.Td>{formatMoney(d.totalValue, d.currency, i18n.language)}</Table.Td>
                    <Table.Td>
                      <Group justify="flex-end">
                        <Button
                          size="xs"
                          variant={copyFrom?.id === d.id ? 'filled' : 'light'}
                          aria-label={`${t('start.choose')} ${d.trackingNumber ?? ''}`}
                          onClick={() => onCopyFrom(d)}
                        >
                          {t('start.choose')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          {copyFrom && (
            <Text size="sm" c="blue">
              {t('start.chosen', { tracking: copyFrom.trackingNumber ?? copyFrom.id })}
            </Text>
          )}
        </Stack>
      )}
    </Stack>
  );
}
