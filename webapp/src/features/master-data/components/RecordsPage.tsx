// A master-data library page (trade companies, products): the filters in the URL, paging,
// add/edit in a dialog, delete; staff with customers:management see every customer's.
import { useState, type ReactNode } from 'react';
import { Button } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useTableSearchParams, type TableUrlState } from '@/components/DataTable';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageLayout } from '@/components/PageLayout';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText } from '@/shared/platform/model/errors';
import type { RecordsApi } from '@/shared/master-data/api/records';
import type { Problems } from '../model/validation';
import { bodyOf, formValues, type FieldSpec } from '../model/fields';
import { RecordDialog } from './RecordDialog';
import { RecordTable, type Column } from './RecordTable';

export interface RecordsPageProps<
  Fields,
  Row extends { id: string; version: number },
  F extends string,
> {
  /** The texts' section: `masterData.<kind>.title`, `.add`, `.edit`, `.field.*`, `.confirmDelete`. */
  kind: 'trade' | 'product';
  api: RecordsApi<Fields, Row>;
  fields: readonly FieldSpec[];
  check: (values: Record<string, string>) => Problems;
  filterKeys: readonly F[];
  filters: (url: TableUrlState<F>) => ReactNode;
  /** The columns, given the field label of a name. */
  columns: (label: (field: string) => string) => Column<Row>[];
  /** The record's name in the delete question. */
  nameOf: (row: Row) => string;
}

type Dialog<Row> = { kind: 'edit'; record: Row | null } | { kind: 'delete'; record: Row } | null;

export function RecordsPage<Fields, Row extends { id: string; version: number }, F extends string>(
  props: RecordsPageProps<Fields, Row, F>,
) {
  const { kind, api } = props;
  const { t } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const staff = !isCustomer(role);
  const url = useTableSearchParams({ filterKeys: props.filterKeys });
  const query = api.useList(url.apiParams);
  const create = api.useCreate();
  const update = api.useUpdate();
  const remove = api.useRemove();
  const [dialog, setDialog] = useState<Dialog<Row>>(null);
  const close = () => setDialog(null);
  const label = (f: string) => t(`masterData.${kind}.field.${f}`);

  return (
    <PageLayout
      title={t(`masterData.${kind}.title`)}
      actions={
        <Button
          leftSection={<IconPlus size={16} />}
          onClick={() => setDialog({ kind: 'edit', record: null })}
        >
          {t(`masterData.${kind}.add`)}
        </Button>
      }
      filters={props.filters(url)}
    >
      {query.isError && <FormError message={errorText(query.error)} />}
      <RecordTable<Row>
        label={t(`masterData.${kind}.title`)}
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
        columns={props.columns(label)}
      />
      {dialog?.kind === 'edit' && (
        <RecordDialog
          title={t(dialog.record ? `masterData.${kind}.edit` : `masterData.${kind}.add`)}
          labels={`masterData.${kind}.field`}
          fields={props.fields}
          initial={formValues(dialog.record, props.fields)}
          editing={!!dialog.record}
          check={props.check}
          onClose={close}
          onSubmit={async (values, customerId) => {
            const body = bodyOf(values) as unknown as Fields;
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
          message={t(`masterData.${kind}.confirmDelete`, { name: props.nameOf(dialog.record) })}
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
