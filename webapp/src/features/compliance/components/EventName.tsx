// An event's name in the reader's language, its stored type under it in small print.
import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function EventName({ type }: { type: string }) {
  const { t } = useTranslation();
  const name = t(`compliance.event.${type}`, { defaultValue: type });
  return (
    <Stack gap={0}>
      <Text size="sm">{name}</Text>
      {name !== type && (
        <Text size="xs" c="dimmed" ff="monospace">
          {type}
        </Text>
      )}
    </Stack>
  );
}
