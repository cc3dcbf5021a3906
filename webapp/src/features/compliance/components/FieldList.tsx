// A JSON value as a key/value list, nested objects indented. Empty fields (null, blank,
// [] and {}) are hidden unless asked for, and the raw JSON is one click away.
import { useState } from 'react';
import { Button, Code, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { fieldRows, isEmptyRow } from '../model/fields';

export function FieldList({ value, empty }: { value: unknown; empty: string }) {
  const { t } = useTranslation();
  const [showEmpty, setShowEmpty] = useState(false);
  const [raw, setRaw] = useState(false);
  const all = fieldRows(value);
  const hidden = all.filter(isEmptyRow).length;
  const rows = showEmpty ? all : all.filter((r) => !isEmptyRow(r));
  const toggles = (
    <Group gap="xs">
      {hidden > 0 && (
        <Button size="compact-xs" variant="subtle" onClick={() => setShowEmpty((s) => !s)}>
          {showEmpty
            ? t('compliance.common.hideEmpty')
            : t('compliance.common.showEmpty', { count: hidden })}
        </Button>
      )}
      {all.length > 0 && (
        <Button size="compact-xs" variant="subtle" onClick={() => setRaw((r) => !r)}>
          {raw ? t('compliance.common.fields') : t('compliance.common.raw')}
        </Button>
      )}
    </Group>
  );
  if (raw) {
    return (
      <>
        {toggles}
        <Code block data-testid="raw-json">
          {JSON.stringify(value, null, 2)}
        </Code>
      </>
    );
  }
  if (rows.length === 0) {
    return (
      <>
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
        {toggles}
      </>
    );
  }
  return (
    <>
      <Table withRowBorders={false} verticalSpacing={2} fz="sm" data-testid="field-list">
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.path || '.'} data-field={r.path}>
              <Table.Td
                style={{
                  paddingLeft: 8 + r.depth * 20,
                  whiteSpace: 'nowrap',
                  verticalAlign: 'top',
                }}
              >
                <Text
                  size="sm"
                  fw={r.value === null ? 600 : 400}
                  c={r.value === null ? undefined : 'dimmed'}
                >
                  {r.label}
                </Text>
              </Table.Td>
              <Table.Td style={{ wordBreak: 'break-word' }}>{r.value ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {toggles}
    </>
  );
}
