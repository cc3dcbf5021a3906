// The list pages' filter bar. Values are edited locally and written to the URL on search,
// so typing does not refetch; reset clears the URL's filters.
import { Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RECEIPT_FILTER_VALUES, receiptLabel } from '@/shared/customs/model/receipts';
import { ListFilterBar } from '@/components/FilterBar/ListFilterBar';
import { listFilterTexts } from '@/components/FilterBar/listFilterTexts';
import { CustomerUsernameInput } from '@/shared/customers/components/CustomerPicker';
import { useDeclT } from '@/shared/declarations/i18n';
import {
  STATUS_FILTER_VALUES,
  normalizeTrackingNumbers,
  statusForUrl,
  type ListFilters as Filters,
} from '@/shared/declarations/model/listFilters';

export interface ListFiltersProps {
  filters: Filters;
  staff: boolean;
  onSearch: (next: Partial<Record<keyof Filters, string>>) => void;
  onReset: () => void;
}

export function ListFilters({ filters, staff, onSearch, onReset }: ListFiltersProps) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  return (
    <ListFilterBar
      filters={filters}
      texts={listFilterTexts(t)}
      trackingWidth={260}
      onSearch={(draft) =>
        onSearch({
          trackingNumber: normalizeTrackingNumbers(draft.trackingNumber),
          status: statusForUrl(draft.status),
          username: staff ? draft.username.trim() : '',
          port: staff ? draft.port.trim() : '',
          customsReceipt: draft.customsReceipt,
          entryId: draft.entryId.trim(),
          fromDate: draft.fromDate,
          toDate: draft.toDate,
        })
      }
      onReset={onReset}
    >
      {(draft, set) => (
        <>
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
          <Select
            label={tg('customs.receiptFilter')}
            value={draft.customsReceipt || null}
            onChange={(v) => set('customsReceipt')(v ?? '')}
            placeholder={tg('customs.receiptAll')}
            clearable
            data={RECEIPT_FILTER_VALUES.map((c) => ({
              value: c,
              label: c === 'none' ? receiptLabel(tg, c) : `${c} · ${receiptLabel(tg, c)}`,
            }))}
            w={170}
          />
          <TextInput
            label={tg('customs.entryId')}
            placeholder={tg('customs.entryIdPlaceholder')}
            value={draft.entryId}
            onChange={(e) => set('entryId')(e.currentTarget.value)}
            w={190}
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
        </>
      )}
    </ListFilterBar>
  );
}
