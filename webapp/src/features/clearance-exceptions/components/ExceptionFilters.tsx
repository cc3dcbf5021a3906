// The exception lists' filter bar. Values are edited locally and written to the URL on
// search, so typing does not refetch; reset clears the URL's filters.
import { useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import {
  DateRangeFilter,
  FilterBar,
  TrackingNumbersFilter,
} from '@/components/FilterBar/FilterBar';
import { useTranslation } from 'react-i18next';
import { normalizeTrackingNumbers } from '@/features/declarations/model/listFilters';
import { useExcT } from '../i18n';
import {
  declarationTypesOf,
  type Direction,
  type ExceptionFilters as Filters,
} from '../model/listFilters';
import { STATUS_FILTER_VALUES } from '../model/statuses';

/** The "all" choice of a select (Mantine keeps an empty string for "nothing chosen"). */
const ALL = '-1';

export interface ExceptionFiltersProps {
  direction: Direction;
  filters: Filters;
  staff: boolean;
  onSearch: (next: Partial<Filters>) => void;
  onReset: () => void;
}

export function ExceptionFilters({
  direction,
  filters,
  staff,
  onSearch,
  onReset,
}: ExceptionFiltersProps) {
  const { t } = useExcT();
  const { t: tg } = useTranslation();
  const [draft, setDraft] = useState(filters);
  const set = (key: keyof Filters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = () =>
    onSearch({
      trackingNumber: normalizeTrackingNumbers(draft.trackingNumber),
      declarationType: draft.declarationType,
      status: draft.status === '-1' ? '' : draft.status,
      port: staff ? draft.port.trim() : '',
      fromDate: draft.fromDate,
      toDate: draft.toDate,
    });

  return (
    <FilterBar
      label={t('list.filters')}
      searchLabel={t('common.search')}
      resetLabel={t('common.reset')}
      onSearch={submit}
      onReset={onReset}
    >
      <TrackingNumbersFilter
        label={t('list.trackingNumber')}
        placeholder={t('list.trackingPlaceholder')}
        value={draft.trackingNumber}
        onChange={set('trackingNumber')}
        onEnter={submit}
        w={240}
      />
      <Select
        label={t('list.declarationType')}
        value={draft.declarationType || ALL}
        onChange={(v) => set('declarationType')(!v || v === ALL ? '' : v)}
        allowDeselect={false}
        data={[
          { value: ALL, label: t('common.all') },
          ...declarationTypesOf(direction).map((d) => ({
            value: d,
            label: tg(`declarationType.${d}`),
          })),
        ]}
        w={140}
      />
      <Select
        label={t('list.status')}
        value={draft.status || '-1'}
        onChange={(v) => set('status')(v ?? '-1')}
        allowDeselect={false}
        data={STATUS_FILTER_VALUES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        w={190}
      />
      {staff && (
        <TextInput
          label={t('list.port')}
          placeholder={t('list.portPlaceholder')}
          value={draft.port}
          onChange={(e) => set('port')(e.currentTarget.value)}
          w={110}
        />
      )}
      <DateRangeFilter
        label={t('list.dateRange')}
        placeholder={t('list.datePlaceholder')}
        fromDate={draft.fromDate}
        toDate={draft.toDate}
        onChange={(fromDate, toDate) => setDraft((d) => ({ ...d, fromDate, toDate }))}
      />
    </FilterBar>
  );
}
