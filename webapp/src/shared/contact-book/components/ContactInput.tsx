// A notice contact field that offers the customer's saved contacts of its channel (its own
// side first) and still takes any address typed.
import { Autocomplete, ColorSwatch, Group, Text } from '@mantine/core';
import { useContactT } from '@/shared/contact-book/i18n';
import { swatch, type SavedContact } from '@/shared/contact-book/model/contacts';

export function ContactInput({
  label,
  value,
  offered,
  onChange,
  error,
  maxLength,
}: {
  label: string;
  value: string;
  offered: readonly SavedContact[];
  onChange: (value: string) => void;
  error?: string;
  maxLength?: number;
}) {
  const { t } = useContactT();
  const byValue = new Map(offered.map((c) => [c.value, c]));
  return (
    <Autocomplete
      label={label}
      value={value}
      maxLength={maxLength}
      error={error}
      data={[...byValue.keys()]}
      placeholder={offered.length > 0 ? t('pick') : undefined}
      onChange={onChange}
      renderOption={({ option }) => {
        const c = byValue.get(option.value);
        return (
          <Group gap="xs" wrap="nowrap">
            <ColorSwatch size={10} color={swatch(c?.color)} />
            <div>
              <Text size="sm">{c?.name || option.value}</Text>
              <Text size="xs" c="dimmed">
                {option.value} · {c ? t(`side.${c.side}`) : ''}
              </Text>
            </div>
          </Group>
        );
      }}
    />
  );
}
