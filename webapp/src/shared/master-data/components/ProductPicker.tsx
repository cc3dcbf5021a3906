// A searchable picker over the product library (GET /api/v1/products/suggest): digits search
// the HS code prefix, text the descriptions. Used by the declaration form's goods lines.
import { useState } from 'react';
import { Loader, Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useProductSuggestions } from '@/shared/master-data/api/products';
import type { ProductRecord } from '@/shared/master-data/api/types';
import { productLabel } from '@/shared/master-data/model/product';

export interface ProductPickerProps extends Omit<
  SelectProps,
  'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'
> {
  onPick: (product: ProductRecord) => void;
  /** Staff: the customer whose library to search. */
  customerId?: string;
}

export function ProductPicker({ onPick, customerId, ...rest }: ProductPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const query = useProductSuggestions(debounced, customerId);
  const products = query.data ?? [];
  return (
    <Select
      searchable
      clearable
      placeholder={t('masterData.product.pickPlaceholder')}
      aria-label={t('masterData.product.pick')}
      data={products.map((p) => ({ value: p.id, label: productLabel(p) }))}
      value={null}
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={debounced.trim() ? t('table.empty') : undefined}
      rightSection={query.isFetching ? <Loader size="xs" /> : undefined}
      onChange={(id) => {
        const p = products.find((x) => x.id === id);
        if (p) {
          onPick(p);
          setSearch('');
        }
      }}
      {...rest}
    />
  );
}
