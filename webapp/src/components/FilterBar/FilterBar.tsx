// The list pages' filter bar: a search form whose values are edited locally and written to
// the URL on search (so typing does not refetch), with the fields every list shares: the
// pasted tracking numbers and the date range. Used by the declaration and exception lists.
import type { ReactNode } from 'react';
import { Button, Group, Paper, Textarea } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { IconRefresh, IconSearch } from '@tabler/icons-react';
import { isoToYmd, ymdToIso } from '@/lib/dates';

export interface FilterBarProps {
  /** The form's accessible name. */
  label: string;
  searchLabel: string;
  resetLabel: string;
  onSearch: () => void;
  onReset: () => void;
  children: ReactNode;
}

export function FilterBar({
  label,
  searchLabel,
  resetLabel,
  onSearch,
  onReset,
  children,
}: FilterBarProps) {
  return (
    <Paper
      withBorder
      p="sm"
      component="form"
      role="search"
      aria-label={label}
      onSubmit={(e) => {
        e.preventDefault();
        onSearch();
      }}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        {children}
        <Group gap="xs">
          <Button type="submit" leftSection={<IconSearch size={16} />}>
            {searchLabel}
          </Button>
          <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={onReset}>
            {resetLabel}
          </Button>
        </Group>
      </Group>
    </Paper>
  );
}

export interface TrackingNumbersFilterProps {
  label: string;
  placeholder: string;
  /** Comma-separated, as in the URL; shown one a line. */
  value: string;
  onChange: (value: string) => void;
  onEnter: () => void;
  w: number;
}

/** A textarea, so a pasted column of tracking numbers keeps its separators; Enter searches,
 *  Shift+Enter adds a line. */
export function TrackingNumbersFilter({
  label,
  placeholder,
  value,
  onChange,
  onEnter,
  w,
}: TrackingNumbersFilterProps) {
  return (
    <Textarea
      label={label}
      placeholder={placeholder}
      value={value.split(',').join('\n')}
      onChange={(e) => onChange(e.currentTarget.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && !e.shiftKey) {
          e.preventDefault();
          onEnter();
        }
      }}
      autosize
      minRows={1}
      maxRows={4}
      w={w}
    />
  );
}

export interface DateRangeFilterProps {
  label: string;
  placeholder: string;
  /** `YYYYMMDD`, empty when unset. */
  fromDate: string;
  toDate: string;
  onChange: (fromDate: string, toDate: string) => void;
}

export function DateRangeFilter({
  label,
  placeholder,
  fromDate,
  toDate,
  onChange,
}: DateRangeFilterProps) {
  return (
    <DatePickerInput
      type="range"
      label={label}
      placeholder={placeholder}
      value={[ymdToIso(fromDate), ymdToIso(toDate)]}
      onChange={([from, to]) => onChange(isoToYmd(from), isoToYmd(to))}
      valueFormat="YYYY-MM-DD"
      clearable
      allowSingleDateInRange
      w={240}
    />
  );
}
