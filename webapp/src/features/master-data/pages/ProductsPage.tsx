// /customers-center/product: the product library (staff with customers:management see every
// customer's): search by description and HS prefix, paging, add/edit in a dialog, delete.
import { useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { productsApi } from '@/shared/master-data/api/products';
import { productProblems } from '../model/validation';
import { PRODUCT_FIELDS } from '../model/fields';
import { RecordsPage } from '../components/RecordsPage';

const FILTER_KEYS = ['keyword', 'hsCode'] as const;

function Filters({
  keyword,
  hsCode,
  onSearch,
  onReset,
}: {
  keyword: string;
  hsCode: string;
  onSearch: (f: { keyword: string; hsCode: string }) => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  const [k, setK] = useState(keyword);
  const [hs, setHs] = useState(hsCode);
  return (
    <Group
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch({ keyword: k.trim(), hsCode: hs.trim() });
      }}
    >
      <TextInput
        aria-label={t('masterData.common.keyword')}
        placeholder={t('masterData.product.keywordPlaceholder')}
        value={k}
        maxLength={100}
        onChange={(e) => setK(e.currentTarget.value)}
      />
      <TextInput
        aria-label={t('masterData.product.field.hsCode')}
        placeholder={t('masterData.product.hsPlaceholder')}
        value={hs}
        maxLength={10}
        onChange={(e) => setHs(e.currentTarget.value.replace(/\D/g, ''))}
      />
      <Button type="submit">{t('masterData.common.search')}</Button>
      <Button variant="default" onClick={onReset}>
        {t('masterData.common.reset')}
      </Button>
    </Group>
  );
}

export default function ProductsPage() {
  return (
    <RecordsPage
      kind="product"
      api={productsApi}
      fields={PRODUCT_FIELDS}
      check={productProblems}
      filterKeys={FILTER_KEYS}
      filters={(url) => (
        <Filters
          key={`${url.filters.keyword}\u0000${url.filters.hsCode}`}
          keyword={url.filters.keyword}
          hsCode={url.filters.hsCode}
          onSearch={(f) => url.setFilters(f)}
          onReset={url.resetFilters}
        />
      )}
      columns={(label) => [
        { key: 'hs', label: label('hsCode'), render: (r) => r.hsCode },
        { key: 'cn', label: label('descriptionCn'), render: (r) => r.descriptionCn },
        { key: 'en', label: label('descriptionEn'), render: (r) => r.descriptionEn },
        { key: 'unit', label: label('declaredUnit'), render: (r) => r.declaredUnit },
        { key: 'origin', label: label('originCountry'), render: (r) => r.originCountry },
        {
          key: 'price',
          label: label('unitPrice'),
          render: (r) => (r.unitPrice == null ? '' : `${r.unitPrice} ${r.currency ?? ''}`),
        },
      ]}
      nameOf={(r) => r.descriptionCn}
    />
  );
}
