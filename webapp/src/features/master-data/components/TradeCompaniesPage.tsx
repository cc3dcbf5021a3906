// /customers-center/trade: the customer's trade companies (staff with customers:management
// see every customer's): search, paging, add/edit in a dialog, delete.
import { useState } from 'react';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useTableSearchParams } from '@/components/DataTable';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageLayout } from '@/components/PageLayout';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { FormError } from '@/features/platform/components/FormError';
import { KeywordSearch } from '@/features/platform/components/KeywordSearch';
import { errorText } from '@/features/platform/model/errors';
import {
  useCreateTradeCompany,
  useDeleteTradeCompany,
  useTradeCompanies,
  useUpdateTradeCompany,
} from '../api/tradeCompanies';
import type { TradeCompanyFields, TradeCompanyRecord } from '../api/types';
import { tradeCompanyProblems } from '../model/validation';
import { RecordDialog } from './RecordDialog';
import { TRADE_FIELDS, bodyOf, formValues } from '../model/fields';
import { RecordTable } from './RecordTable';

type Dialog =
  | { kind: 'edit'; record: TradeCompanyRecord | null }
  | { kind: 'delete'; record: TradeCompanyRecord }
  | null;

export default function TradeCompaniesPage() {
  const { t } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const staff = !isCustomer(role);
  const url = useTableSearchParams({ filterKeys: ['keyword'] as const });
  const query = useTradeCompanies(url.apiParams);
  const create = useCreateTradeCompany();
  const update = useUpdateTradeCompany();
  const remove = useDeleteTradeCompany();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const label = (f: string) => t(`masterData.trade.field.${f}`);

  return (
    <PageLayout
      title={t('masterData.trade.title')}
      actions={
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => setDialog({ kind: 'edit', record: null })}
        >
          {t('masterData.trade.add')}
        </Button>
      }
      filters={
        <KeywordSearch
          key={url.filters.keyword}
          initial={url.filters.keyword}
          placeholder={t('masterData.trade.keywordPlaceholder')}
          onSearch={(keyword) => url.setFilters({ keyword })}
          onReset={url.resetFilters}
        />
      }
    >
      {query.isError && <FormError message={errorText(query.error)} />}
      <RecordTable<TradeCompanyRecord>
        label={t('masterData.trade.title')}
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
          { key: 'cn', label: label('companyNameCn'), render: (r) => r.companyNameCn },
          { key: 'en', label: label('companyNameEn'), render: (r) => r.companyNameEn },
          { key: 'uscc', label: label('uscc'), render: (r) => r.uscc },
          { key: 'customs', label: label('customsCode'), render: (r) => r.customsCode },
          { key: 'ciq', label: label('inspectionCode'), render: (r) => r.inspectionCode },
          { key: 'address', label: label('address'), render: (r) => r.address },
        ]}
      />
      {dialog?.kind === 'edit' && (
        <RecordDialog
          title={t(dialog.record ? 'masterData.trade.edit' : 'masterData.trade.add')}
          labels="masterData.trade.field"
          fields={TRADE_FIELDS}
          initial={formValues(dialog.record, TRADE_FIELDS)}
          editing={!!dialog.record}
          check={tradeCompanyProblems}
          onClose={close}
          onSubmit={async (values, customerId) => {
            const body = bodyOf(values) as unknown as TradeCompanyFields;
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
          message={t('masterData.trade.confirmDelete', { name: dialog.record.companyNameCn })}
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
