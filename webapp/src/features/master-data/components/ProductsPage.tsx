// /customers-center/product: the product library (staff with customers:management see every
// customer's): search by description and HS prefix, paging, add/edit in a dialog, delete.
import { useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useTableSearchParams } from '@/components/DataTable';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageLayout } from '@/components/PageLayout';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { FormError } from '@/features/platform/components/FormError';
import { errorText } from '@/features/platform/model/errors';
import { useCreateProduct, useDeleteProduct, useProducts, useUpdateProduct } from '../api/products';
import type { ProductFields, ProductRecord } from '../api/types';
import { productProblems } from '../model/validation';
import { RecordDialog } from './RecordDialog';
import { PRODUCT_FIELDS, bodyOf, formValues } from '../model/fields';
import { RecordTable } from './RecordTable';

type Dialog =
  { kind: 'edit'; record: ProductRecord | null } | { kind: 'delete'; record: ProductRecord } | null;

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
  const { t } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const staff = !isCustomer(role);
  const url = useTableSearchParams({ filterKeys: ['keyword', 'hsCode'] as const });
  const query = useProducts(url.apiParams);
  const create = useCreateProduct();
  const update = useUpdateProduct();
  const remove = useDeleteProduct();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const label = (f: string) => t(`masterData.product.field.${f}`);

  return (
    <PageLayout
      title={t('masterData.product.title')}
      actions={
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => setDialog({ kind: 'edit', record: null })}
        >
          {t('masterData.product.add')}
        </Button>
      }
      filters={
        <Filters
          key={`${url.filters.keyword}\u0000${url.filters.hsCode}`}
          keyword={url.filters.keyword}
          hsCode={url.filters.hsCode}
          onSearch={(f) => url.setFilters(f)}
          onReset={url.resetFilters}
        />
      }
    >
      {query.isError && <FormError message={errorText(query.error)} />}
      <RecordTable<ProductRecord>
        label={t('masterData.product.title')}
        rows={query.data?.records ?? []}
        staff={staff}
        loading={query.isFetching}
        page={url.page}
        pageSize={url.pageSize}
        total={query.data?.total ?? 0}
        onPageChange={url.setPage}
        onPageSizeChange={url.setPageSize}
        onEdit={(record) => setDialog({ kind: 'edit', record })}
        onDelete={(record) => setDialog({ kind: 'delete', record })}
        columns={[
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
      />
      {dialog?.kind === 'edit' && (
        <RecordDialog
          title={t(dialog.record ? 'masterData.product.edit' : 'masterData.product.add')}
          labels="masterData.product.field"
          fields={PRODUCT_FIELDS}
          initial={formValues(dialog.record, PRODUCT_FIELDS)}
          editing={!!dialog.record}
          check={productProblems}
          onClose={close}
          onSubmit={async (values, customerId) => {
            const body = bodyOf(values) as unknown as ProductFields;
            if (dialog.record)
              await update.mutateAsync({
                id: dialog.record.id,
                version: dialog.record.version,
                body,
              });
            else await create.mutateAsync({ ...body, customerId: customerId || undefined });
            showMessage('success', t('masterData.common.saved'));
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <ConfirmDialog
          title={t('masterData.common.confirmDeleteTitle')}
          message={t('masterData.product.confirmDelete', { name: dialog.record.descriptionCn })}
          danger
          onConfirm={async () => {
            await remove.mutateAsync({ id: dialog.record.id, version: dialog.record.version });
            showMessage('success', t('masterData.common.deleted'));
          }}
          onClose={close}
        />
      )}
    </PageLayout>
  );
}
