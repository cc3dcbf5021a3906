import type { TFunction } from 'i18next';
import type { ListFilterBarProps, ListFilterValues } from './ListFilterBar';

/** The bar's texts under a list namespace's `list.*` and `common.*` keys. */
export function listFilterTexts(
  t: TFunction<string>,
): ListFilterBarProps<ListFilterValues>['texts'] {
  return {
    filters: t('list.filters'),
    search: t('common.search'),
    reset: t('common.reset'),
    trackingNumber: t('list.trackingNumber'),
    trackingPlaceholder: t('list.trackingPlaceholder'),
    dateRange: t('list.dateRange'),
    datePlaceholder: t('list.datePlaceholder'),
  };
}
