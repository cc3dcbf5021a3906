import { Text } from '@mantine/core';
import { useDeclT } from '../i18n';
import type { FieldKind, RefTable } from '../model/fields';
import { useFieldText } from './useFieldText';
import { useRefLabel } from './useRefLabels';

export function FieldValue({
  kind,
  table,
  value,
  size = 'sm',
}: {
  kind: FieldKind;
  table?: RefTable;
  value: unknown;
  size?: 'xs' | 'sm';
}) {
  const { t } = useDeclT();
  const label = useRefLabel(table);
  const text = useFieldText()(kind, value, table ? label : undefined);
  if (!text)
    return (
      <Text size={size} c="dimmed">
        {t('common.none')}
      </Text>
    );
  return (
    <Text size={size} style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}>
      {text}
    </Text>
  );
}
