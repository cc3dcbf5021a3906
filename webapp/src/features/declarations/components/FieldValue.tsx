import { Text } from '@mantine/core';
import { useDeclT } from '@/shared/declarations/i18n';
import type { FieldKind, RefTable } from '@/shared/declarations/model/fields';
import { useFieldText } from './useFieldText';
import { useRefLabel } from '@/shared/declarations/components/useRefLabels';

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
