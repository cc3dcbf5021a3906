// A searchable select fed by GET /api/v1/reference/{table} (cached for the page's life):
// options read "code name", search matches the code or either name. `free` allows values
// outside the table (ports: foreign ports and IATA codes are free text).
import { useMemo, type ReactNode } from 'react';
import { Autocomplete, Select, type ComboboxItem, type OptionsFilter } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useReference } from '@/shared/declarations/api/getReference';
import type { RefTable } from '@/shared/declarations/model/fields';
import { refRowLabel } from './useRefLabels';

export interface ReferenceSelectProps {
  table: RefTable;
  value: string;
  onChange: (value: string) => void;
  label?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  free?: boolean;
  size?: 'xs' | 'sm';
  placeholder?: string;
  'aria-label'?: string;
  onBlur?: () => void;
  onFocus?: () => void;
}

const MAX_OPTIONS = 80;

const filter: OptionsFilter = ({ options, search }) => {
  const q = search.trim().toLowerCase();
  if (!q) return options;
  return (options as ComboboxItem[]).filter(
    (o) => o.label.toLowerCase().includes(q) || o.value.toLowerCase().includes(q),
  );
};

export function ReferenceSelect({
  table,
  value,
  onChange,
  free,
  size = 'sm',
  ...rest
}: ReferenceSelectProps) {
  const { i18n } = useTranslation();
  const { data, isLoading } = useReference(table);
  const options = useMemo(() => {
    const rows = (data ?? []).map((r) => ({ value: r.code, label: refRowLabel(r, i18n.language) }));
    // A stored code missing from today's table still shows (as itself).
    if (value && !rows.some((r) => r.value === value)) rows.unshift({ value, label: value });
    return rows;
  }, [data, i18n.language, value]);

  if (free) {
    const labels = new Map(options.map((o) => [o.value, o.label]));
    return (
      <Autocomplete
        size={size}
        value={value}
        onChange={onChange}
        data={options.map((o) => o.value)}
        filter={({ options: opts, search }) => {
          const q = search.trim().toLowerCase();
          if (!q) return opts;
          return (opts as ComboboxItem[]).filter((o) =>
            (labels.get(o.value) ?? o.value).toLowerCase().includes(q),
          );
        }}
        renderOption={({ option }) => labels.get(option.value) ?? option.value}
        limit={MAX_OPTIONS}
        {...rest}
      />
    );
  }
  return (
    <Select
      size={size}
      searchable
      clearable
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      data={options}
      filter={filter}
      limit={MAX_OPTIONS}
      nothingFoundMessage={isLoading ? '…' : '—'}
      {...rest}
    />
  );
}
