// An HS code input with suggestions (GET /api/v1/hs-suggestions): as the user types
// (debounced), or from the goods description while the field is empty, it lists codes with
// their description, chapter > heading > subheading, source, score, legal units and
// declaration elements; choosing one puts its code in the field. Typing stays free: the
// value is whatever the field holds.
import { useState, type FocusEvent, type ReactNode } from 'react';
import {
  Badge,
  Combobox,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  useCombobox,
  type TextInputProps,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useHsT } from '@/shared/hs-codes/i18n';
import { useHsSuggestions } from '@/shared/hs-codes/api/hsSuggestions';
import { pathText } from '@/shared/hs-codes/model/path';
import type { HsSource, HsSuggestion } from '@/shared/hs-codes/model/types';

const SOURCE_COLORS: Record<HsSource, string> = {
  PRODUCT_LIBRARY: 'teal',
  TARIFF_ZH: 'grape',
  NOMENCLATURE: 'blue',
};

export interface HsCodeInputProps extends Omit<
  TextInputProps,
  'value' | 'onChange' | 'rightSection'
> {
  value: string;
  /** The new text; `suggestion` when it was chosen from the list. */
  onChange: (code: string, suggestion?: HsSuggestion) => void;
  /** Staff: the customer whose product library is searched (customers: their own). */
  customerId?: string;
  /** The goods description, searched while the field is empty. */
  description?: string;
  /** Debounce in ms (tests pass 0). */
  debounce?: number;
}

function Option({ s }: { s: HsSuggestion }) {
  const { t } = useHsT();
  const lines: ReactNode[] = [];
  if (s.legalUnits?.length)
    lines.push(
      t('legalUnits', { units: s.legalUnits.join(' / '), interpolation: { escapeValue: false } }),
    );
  if (s.elements)
    lines.push(t('elements', { elements: s.elements, interpolation: { escapeValue: false } }));
  return (
    <Stack gap={2}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text ff="monospace" fw={600} size="sm">
          {s.code}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Badge size="xs" variant="light" color={SOURCE_COLORS[s.source]}>
            {t(`source.${s.source}`)}
          </Badge>
          <Text size="xs" c="dimmed">
            {t('score', { value: `${Math.round(s.score * 100)}%` })}
          </Text>
        </Group>
      </Group>
      <Text size="xs">{s.description}</Text>
      {s.path.length > 0 && (
        <Text size="xs" c="dimmed" lineClamp={2} data-testid="hs-path">
          {pathText(s)}
        </Text>
      )}
      {lines.map((l, i) => (
        <Text key={i} size="xs" c="dimmed">
          {l}
        </Text>
      ))}
      {s.code.length === 6 && (
        <Text size="xs" c="orange">
          {t('complete')}
        </Text>
      )}
    </Stack>
  );
}

export function HsCodeInput({
  value,
  onChange,
  customerId,
  description,
  debounce = 300,
  onFocus,
  onBlur,
  placeholder,
  ...rest
}: HsCodeInputProps) {
  const { t } = useHsT();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  // What the user typed since the field took focus; the description is searched until then.
  const [typed, setTyped] = useState<string | null>(null);
  const fromDescription = !(typed ?? '').trim() && !value.trim();
  const search = fromDescription ? (description ?? '') : (typed ?? value);
  const [debounced] = useDebouncedValue(search.trim(), debounce);
  const open = combobox.dropdownOpened;
  const query = useHsSuggestions(debounced, customerId, open);
  const items = debounced ? (query.data ?? []) : [];

  return (
    <Combobox
      store={combobox}
      width={520}
      position="bottom-start"
      withinPortal
      onOptionSubmit={(key) => {
        const chosen = items.find((s) => `${s.source}:${s.code}` === key);
        if (chosen) onChange(chosen.code, chosen);
        setTyped(null);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          {...rest}
          value={value}
          placeholder={placeholder ?? t('placeholder')}
          autoComplete="off"
          rightSection={open && query.isFetching ? <Loader size="xs" /> : undefined}
          onChange={(e) => {
            const next = e.currentTarget.value;
            setTyped(next);
            onChange(next);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={(e: FocusEvent<HTMLInputElement>) => {
            combobox.openDropdown();
            onFocus?.(e);
          }}
          onBlur={(e: FocusEvent<HTMLInputElement>) => {
            combobox.closeDropdown();
            setTyped(null);
            onBlur?.(e);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') combobox.closeDropdown();
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={!debounced}>
        {fromDescription && debounced && (
          <Combobox.Header>
            <Text size="xs" c="dimmed">
              {t('forDescription', { text: debounced, interpolation: { escapeValue: false } })}
            </Text>
          </Combobox.Header>
        )}
        <Combobox.Options mah={360} style={{ overflowY: 'auto' }}>
          {items.length === 0 ? (
            <Combobox.Empty>{query.isFetching ? t('searching') : t('none')}</Combobox.Empty>
          ) : (
            items.map((s) => (
              <Combobox.Option
                key={`${s.source}:${s.code}`}
                value={`${s.source}:${s.code}`}
                aria-label={`${s.code} ${s.description}`}
              >
                <Option s={s} />
              </Combobox.Option>
            ))
          )}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
