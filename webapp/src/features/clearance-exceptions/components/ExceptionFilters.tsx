// The exception lists' filter bar. Values are edited locally and written to the URL on
// search, so typing does not refetch; reset clears the URL's filters.
import { Select, TextInput } from '@mantine/core';
import { ListFilterBar } from '@/components/FilterBar/ListFilterBar';
import { listFilterTexts } from '@/components/FilterBar/listFilterTexts';
import { normalizeTrackingNumbers } from '@/shared/declarations/model/listFilters';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import {
  declarationTypesOf,
  type Direction,
  type ExceptionFilters as Filters,
} from '@/shared/clearance-exceptions/model/listFilters';
import { STATUS_FILTER_VALUES } from '@/shared/clearance-exceptions/model/statuses';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

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
  const typeName = useDeclarationTypeName();
  return (
    <ListFilterBar
      filters={filters}
      texts={listFilterTexts(t)}
      trackingWidth={240}
      onSearch={(draft) =>
        onSearch({
          trackingNumber: normalizeTrackingNumbers(draft.trackingNumber),
          declarationType: draft.declarationType,
          status: draft.status === '-1' ? '' : draft.status,
          port: staff ? draft.port.trim() : '',
          fromDate: draft.fromDate,
          toDate: draft.toDate,
        })
      }
      onReset={onReset}
    >
      {(draft, set) => (
        <>
          <Select
            label={t('list.declarationType')}
            value={draft.declarationType || ALL}
            onChange={(v) => set('declarationType')(!v || v === ALL ? '' : v)}
            allowDeselect={false}
            data={[
              { value: ALL, label: t('common.all') },
              ...declarationTypesOf(direction).map((d) => ({
                value: d,
                label: typeName(d, { code: true }),
              })),
            ]}
            w={180}
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
        </>
      )}
    </ListFilterBar>
  );
}
