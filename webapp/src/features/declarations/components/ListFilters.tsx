// The list pages' filter bar. Values are edited locally and written to the URL on search,
// so typing does not refetch; reset clears the URL's filters.
import { useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import {
  DateRangeFilter,
  FilterBar,
  TrackingNumbersFilter,
} from '@/components/FilterBar/FilterBar';
import { useTranslation } from 'react-i18next';
import { CustomerUsernameInput } from '@/features/customers/components/CustomerPicker';
import { useDeclT } from '../i18n';
import {
  STATUS_FILTER_VALUES,
  normalizeTrackingNumbers,
  statusForUrl,
  type ListFilters as Filters,
} from '../model/listFilters';

export interface ListFiltersProps {
  filters: Filters;
  staff: boolean;
  onSearch: (next: Partial<Record<keyof Filters, string>>) => void;
  onReset: () => void;
}

export function ListFilters({ filters, staff, onSearch, onReset }: ListFiltersProps) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const [draft, setDraft] = useState(filters);
  const set = (key: keyof Filters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));

  const submit = () =>
    onSearch({
      trackingNumber: normalizeTrackingNumbers(draft.trackingNumber),
      status: statusForUrl(draft.status),
      username: staff ? draft.username.trim() : '',
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
        w={260}
      />
      <Select
        label={t('list.status')}
        value={draft.status || '-1'}
        onChange={(v) => set('status')(v ?? '-1')}
        allowDeselect={false}
        data={STATUS_FILTER_VALUES.map((s) => ({
          value: s,
          label: tg(`declarationStatus.${s}`),
        }))}
        w={170}
      />
      {staff && (
        <>
          {/* The list filters by the exact username; the archive suggests matches. */}
          <CustomerUsernameInput
            label={t('list.customer')}
            placeholder={t('list.customerPlaceholder')}
            value={draft.username}
            onChange={set('username')}
            w={180}
          />
          <TextInput
            label={t('list.port')}
            placeholder={t('list.portPlaceholder')}
            value={draft.port}
            onChange={(e) => set('port')(e.currentTarget.value)}
            w={110}
          />
        </>
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
