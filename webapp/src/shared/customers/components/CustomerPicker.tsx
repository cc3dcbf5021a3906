// Customer pickers fed by GET /api/v1/customers?keyword= (debounced; the server filters),
// each option showing the username and the company: a searchable select whose value is the
// customer's id (or username), and a free-text username input with suggestions for filters.
import { useMemo, useState } from 'react';
import {
  Combobox,
  Group,
  Loader,
  Select,
  Text,
  TextInput,
  useCombobox,
  type SelectProps,
  type TextInputProps,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useCustomerOptions } from '@/shared/customers/api/getCustomers';
import type { CustomerSummary } from '@/shared/customers/model/types';
import { customerOptionLabel } from '@/shared/customers/model/picker';

export const PICKER_DEBOUNCE_MS = 300;

export interface CustomerPickerProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'
> {
  /** The chosen customer's id (or username with `valueKey="username"`), '' for none. */
  value: string;
  onChange: (value: string, customer: CustomerSummary | null) => void;
  valueKey?: 'customerId' | 'username';
  /** The chosen customer when known (e.g. preselected by id), so its label shows at once. */
  selected?: Pick<CustomerSummary, 'customerId' | 'username' | 'companyName'> | null;
}

export function CustomerPicker({
  value,
  onChange,
  valueKey = 'customerId',
  selected,
  ...rest
}: CustomerPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<CustomerSummary | null>(null);
  const known =
    (picked && picked[valueKey] === value ? picked : null) ??
    (selected && selected[valueKey] === value ? selected : null);
  const selectedLabel = known
    ? customerOptionLabel(known)
    : value && valueKey === 'username'
      ? value
      : '';
  // While the input shows the chosen label, list every customer (not only that one).
  const keyword = search.trim() === selectedLabel ? '' : search.trim();
  const [debounced] = useDebouncedValue(keyword, PICKER_DEBOUNCE_MS);
  const query = useCustomerOptions(debounced);
  const records = useMemo(() => query.data?.records ?? [], [query.data]);

  const data = useMemo(() => {
    const options = records.map((c) => ({ value: c[valueKey], label: customerOptionLabel(c) }));
    if (value && !options.some((o) => o.value === value)) {
      options.unshift({ value, label: selectedLabel || value });
    }
    return options;
  }, [records, value, valueKey, selectedLabel]);

  return (
    <Select
      searchable
      clearable
      {...rest}
      data={data}
      value={value || null}
      searchValue={search}
      onSearchChange={setSearch}
      onChange={(v) => {
        const customer = records.find((c) => c[valueKey] === v) ?? null;
        setPicked(customer);
        onChange(v ?? '', customer);
      }}
      // The server already filtered by the keyword.
      filter={({ options }) => options}
      nothingFoundMessage={
        query.isError
          ? t('customers.picker.failed')
          : query.isFetching
            ? t('common.loading')
            : t('customers.picker.none')
      }
      rightSection={query.isFetching ? <Loader size={14} /> : undefined}
      renderOption={({ option }) => {
        const c = records.find((r) => r[valueKey] === option.value);
        return c ? (
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500}>
              {c.username}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {c.companyName}
            </Text>
          </Group>
        ) : (
          <Text size="sm">{option.label}</Text>
        );
      }}
    />
  );
}

export interface CustomerUsernameInputProps extends Omit<
  TextInputProps,
  'value' | 'onChange' | 'rightSection'
> {
  value: string;
  onChange: (username: string) => void;
  /** Width of the suggestions dropdown. */
  dropdownWidth?: number;
}

/**
 * The filters' variant: a username typed freely (the declaration list filters by the exact
 * username) with the archive's matches suggested as one types (username + company).
 */
export function CustomerUsernameInput({
  value,
  onChange,
  dropdownWidth = 320,
  label,
  onFocus,
  onBlur,
  ...rest
}: CustomerUsernameInputProps) {
  const { t } = useTranslation();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [debounced] = useDebouncedValue(value.trim(), PICKER_DEBOUNCE_MS);
  const query = useCustomerOptions(debounced, combobox.dropdownOpened || debounced !== '');
  const records = query.data?.records ?? [];
  return (
    <Combobox
      store={combobox}
      width={dropdownWidth}
      position="bottom-start"
      withinPortal
      onOptionSubmit={(v) => {
        onChange(v);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target>
        <TextInput
          {...rest}
          label={label}
          value={value}
          autoComplete="off"
          onChange={(e) => {
            onChange(e.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={(e) => {
            combobox.openDropdown();
            onFocus?.(e);
          }}
          onBlur={(e) => {
            combobox.closeDropdown();
            onBlur?.(e);
          }}
          rightSection={query.isFetching ? <Loader size={14} /> : undefined}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={records.length === 0}>
        {/* Named apart from the input, so the label names only the input. */}
        <Combobox.Options aria-label={t('customers.picker.suggestions')}>
          {records.map((c) => (
            <Combobox.Option value={c.username} key={c.customerId}>
              <Group gap={6} wrap="nowrap">
                <Text size="sm" fw={500}>
                  {c.username}
                </Text>
                <Text size="xs" c="dimmed" truncate>
                  {c.companyName}
                </Text>
              </Group>
            </Combobox.Option>
          ))}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
