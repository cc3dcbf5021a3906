// Mapping schemes: the list (search, paging, edit, delete) and, in the same page, the
// editor. Customers use /customers-center/mapping (`?scheme=new` or `?scheme=<id>` opens
// the editor); staff use /customers-profile/mapping-list, whose add and edit open
// /customers-profile/mapping-create and /mapping-detail?id=.
import { useState } from 'react';
import { Anchor, Button, Loader } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useTableSearchParams } from '@/components/DataTable';
import { ConfirmDialog } from '@/components/ConfirmDialog';
import { PageLayout } from '@/components/PageLayout';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { FormError } from '@/shared/platform/components/FormError';
import { KeywordSearch } from '@/shared/platform/components/KeywordSearch';
import { errorText } from '@/shared/platform/model/errors';
import {
  useDeleteMappingScheme,
  useMappingScheme,
  useMappingSchemes,
} from '@/shared/master-data/api/mappingSchemes';
import type { MappingSchemeRecord } from '@/shared/master-data/api/types';
import { RecordTable } from '@/features/master-data/components/RecordTable';
import { SchemeEditor } from '@/features/master-data/components/SchemeEditor';

const STAFF_LIST = '/customers-profile/mapping-list';

function SchemeList({
  onAdd,
  onEdit,
}: {
  onAdd: () => void;
  onEdit: (record: MappingSchemeRecord) => void;
}) {
  const { t } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const staff = !isCustomer(role);
  const url = useTableSearchParams({ filterKeys: ['keyword'] as const });
  const query = useMappingSchemes(url.apiParams);
  const remove = useDeleteMappingScheme();
  const [deleting, setDeleting] = useState<MappingSchemeRecord | null>(null);
  const label = (f: string) => t(`masterData.mapping.field.${f}`);
  return (
    <PageLayout
      title={t(staff ? 'masterData.mapping.listTitle' : 'masterData.mapping.title')}
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={onAdd}>
          {t('masterData.mapping.add')}
        </Button>
      }
      filters={
        <KeywordSearch
          key={url.filters.keyword}
          initial={url.filters.keyword}
          placeholder={t('masterData.mapping.keywordPlaceholder')}
          onSearch={(keyword) => url.setFilters({ keyword })}
          onReset={url.resetFilters}
        />
      }
    >
      {query.isError && <FormError message={errorText(query.error)} />}
      <RecordTable<MappingSchemeRecord>
        label={t('masterData.mapping.title')}
        rows={query.data?.records ?? []}
        staff={staff}
        loading={query.isFetching}
        page={url.page}
        pageSize={url.pageSize}
        total={query.data?.total ?? 0}
        onPageChange={url.setPage}
        onPageSizeChange={url.setPageSize}
        onEdit={onEdit}
        onDelete={setDeleting}
        columns={[
          {
            key: 'name',
            label: label('name'),
            render: (r) => (
              <Anchor component="button" type="button" onClick={() => onEdit(r)}>
                {r.name}
              </Anchor>
            ),
          },
          {
            key: 'type',
            label: label('declarationType'),
            render: (r) => r.declarationType ?? t('masterData.mapping.anyType'),
          },
          { key: 'columns', label: label('columnCount'), render: (r) => r.columnCount },
        ]}
      />
      {deleting && (
        <ConfirmDialog
          title={t('masterData.common.confirmDeleteTitle')}
          message={t('masterData.mapping.confirmDelete', { name: deleting.name })}
          danger
          onConfirm={async () => {
            await remove.mutateAsync({ id: deleting.id, version: deleting.version });
            showMessage('success', t('masterData.common.deleted'));
          }}
          onClose={() => setDeleting(null)}
        />
      )}
    </PageLayout>
  );
}

/** The editor of one scheme (`id`) or a new one (`id` null). */
function EditorPage({ id, onDone }: { id: string | null; onDone: () => void }) {
  const { t } = useTranslation();
  const query = useMappingScheme(id);
  return (
    <PageLayout
      title={t(id ? 'masterData.mapping.edit' : 'masterData.mapping.add')}
      back={
        <Anchor component="button" type="button" size="sm" onClick={onDone}>
          {t('masterData.mapping.back')}
        </Anchor>
      }
    >
      {id && query.isLoading && <Loader size="sm" />}
      {id && query.isError && <FormError message={errorText(query.error)} />}
      {(!id || query.data) && (
        <SchemeEditor key={id ?? 'new'} record={query.data ?? null} onDone={onDone} />
      )}
    </PageLayout>
  );
}

/** /customers-center/mapping: the customer's schemes, the editor in the same page. */
export default function MappingCenterPage() {
  const [search, setSearch] = useSearchParams();
  const scheme = search.get('scheme');
  const open = (value: string | null) =>
    setSearch((s) => {
      const n = new URLSearchParams(s);
      if (value) n.set('scheme', value);
      else n.delete('scheme');
      return n;
    });
  if (scheme) return <EditorPage id={scheme === 'new' ? null : scheme} onDone={() => open(null)} />;
  return <SchemeList onAdd={() => open('new')} onEdit={(r) => open(r.id)} />;
}

/** /customers-profile/mapping-list (staff). */
export function MappingListPage() {
  const navigate = useNavigate();
  return (
    <SchemeList
      onAdd={() => void navigate('/customers-profile/mapping-create')}
      onEdit={(r) =>
        void navigate(`/customers-profile/mapping-detail?id=${encodeURIComponent(r.id)}`)
      }
    />
  );
}

/** /customers-profile/mapping-create and /mapping-detail?id= (staff). */
export function MappingEditorPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return <EditorPage id={search.get('id')} onDone={() => void navigate(STAFF_LIST)} />;
}
