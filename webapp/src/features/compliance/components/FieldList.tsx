// A JSON value as a key/value list, nested objects indented (never raw JSON).
import { Table, Text } from '@mantine/core';
import { fieldRows } from '../model/fields';

export function FieldList({ value, empty }: { value: unknown; empty: string }) {
  const rows = fieldRows(value);
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Table withRowBorders={false} verticalSpacing={2} fz="sm" data-testid="field-list">
      <Table.Tbody>
        {rows.map((r) => (
          <Table.Tr key={r.path || '.'} data-field={r.path}>
            <Table.Td
              style={{ paddingLeft: 8 + r.depth * 20, whiteSpace: 'nowrap', verticalAlign: 'top' }}
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
  );
}
