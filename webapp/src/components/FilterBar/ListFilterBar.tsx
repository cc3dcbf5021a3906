// The one filter bar of the lists (declarations, exceptions): the values are edited locally
// and written to the URL on search (so typing does not refetch), reset clears the URL's
// filters; the pasted tracking numbers first, the list's own fields, the date range last.
import { useState, type ReactNode } from 'react';
import { DateRangeFilter, FilterBar, TrackingNumbersFilter } from './FilterBar';

export interface ListFilterValues {
  trackingNumber: string;
  fromDate: string;
  toDate: string;
}

export interface ListFilterBarProps<F extends ListFilterValues> {
  filters: F;
  texts: {
    filters: string;
    search: string;
    reset: string;
    trackingNumber: string;
    trackingPlaceholder: string;
    dateRange: string;
    datePlaceholder: string;
  };
  trackingWidth: number;
  onSearch: (draft: F) => void;
  onReset: () => void;
  /** The list's own fields, between the tracking numbers and the date range. */
  children: (draft: F, set: (key: keyof F) => (value: string) => void) => ReactNode;
}

export function ListFilterBar<F extends ListFilterValues>({
  filters,
  texts,
  trackingWidth,
  onSearch,
  onReset,
  children,
}: ListFilterBarProps<F>) {
  const [draft, setDraft] = useState(filters);
  const set = (key: keyof F) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const submit = () => onSearch(draft);
  return (
    <FilterBar
      label={texts.filters}
      searchLabel={texts.search}
      resetLabel={texts.reset}
      onSearch={submit}
      onReset={onReset}
    >
      <TrackingNumbersFilter
        label={texts.trackingNumber}
        placeholder={texts.trackingPlaceholder}
        value={draft.trackingNumber}
        onChange={set('trackingNumber')}
        onEnter={submit}
        w={trackingWidth}
      />
      {children(draft, set)}
      <DateRangeFilter
        label={texts.dateRange}
        placeholder={texts.datePlaceholder}
        fromDate={draft.fromDate}
        toDate={draft.toDate}
        onChange={(fromDate, toDate) => setDraft((d) => ({ ...d, fromDate, toDate }))}
      />
    </FilterBar>
  );
}
