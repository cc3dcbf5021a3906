// Create or edit a mapping scheme: name, declaration type, header row, the columns (target
// field by header, aliases or position), value translations and defaults; try it on a
// sample xlsx (POST /api/v1/mapping-schemes/preview) before saving.
import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  FileInput,
  Group,
  ScrollArea,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { CustomerPicker } from '@/shared/customers/components/CustomerPicker';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText } from '@/shared/platform/model/errors';
import { ApiError } from '@/lib/request';
import {
  useCreateMappingScheme,
  useMappingTargets,
  usePreviewMappingScheme,
  useUpdateMappingScheme,
} from '@/shared/master-data/api/mappingSchemes';
import type { MappingPreview, MappingSchemeRecord } from '@/shared/master-data/api/types';
import {
  emptySchemeForm,
  fromDefinition,
  schemeProblems,
  toDefinition,
  type ColumnRow,
  type PairRow,
  type SchemeForm,
} from '../model/scheme';

const TYPES = ['OB', 'OC', 'OD', 'IB', 'IC', 'ID'];

/** Server field errors by their path (`columns[2].field`, `name`). */
function serverErrors(e: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (e instanceof ApiError)
    for (const f of e.fieldErrors) {
      const key = f.field.replace(/^scheme\./, '');
      if (!out[key]) out[key] = f.message;
    }
  return out;
}

export function SchemeEditor({
  record,
  onDone,
}: {
  record: MappingSchemeRecord | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const role = useSessionStore((s) => s.role);
  const staffCreating = !record && !isCustomer(role);
  const targets = useMappingTargets();
  const create = useCreateMappingScheme();
  const update = useUpdateMappingScheme();
  const preview = usePreviewMappingScheme();
  const [form, setForm] = useState<SchemeForm>(() =>
    record ? fromDefinition(record.definition) : emptySchemeForm(),
  );
  const [customerId, setCustomerId] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<MappingPreview | null>(null);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const fieldOptions = (targets.data ?? []).map((x) => ({ value: x.field, label: x.field }));
  const set = (patch: Partial<SchemeForm>) => setForm((f) => ({ ...f, ...patch }));
  const setColumn = (i: number, patch: Partial<ColumnRow>) =>
    set({ columns: form.columns.map((c, j) => (j === i ? { ...c, ...patch } : c)) });
  const setPair = (list: 'translations' | 'defaults', i: number, patch: Partial<PairRow>) =>
    set({ [list]: form[list].map((p, j) => (j === i ? { ...p, ...patch } : p)) });

  const localErrors = () => {
    const local: Record<string, string> = {};
    for (const [k, v] of Object.entries(schemeProblems(form)))
      local[k] = t(`masterData.error.${v}`);
    return local;
  };

  const save = async () => {
    setFormError(null);
    const local = localErrors();
    if (staffCreating && !customerId) local.customerId = t('masterData.error.required');
    setErrors(local);
    if (Object.keys(local).length) return;
    setBusy(true);
    try {
      const body = toDefinition(form);
      if (record) await update.mutateAsync({ id: record.id, version: record.version, body });
      else await create.mutateAsync({ ...body, customerId: customerId || undefined });
      showMessage('success', t('masterData.common.saved'));
      onDone();
    } catch (e) {
      const fields = serverErrors(e);
      setErrors(fields);
      if (!Object.keys(fields).length) setFormError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  const runPreview = async () => {
    setPreviewError(null);
    const local = localErrors();
    setErrors(local);
    if (Object.keys(local).length) return;
    if (!file) {
      setPreviewError(t('masterData.error.fileRequired'));
      return;
    }
    try {
      setResult(await preview.mutateAsync({ file, scheme: toDefinition(form), rows: 10 }));
    } catch (e) {
      setResult(null);
      setErrors(serverErrors(e));
      setPreviewError(errorText(e));
    }
  };

  const fieldSelect = (
    value: string,
    onChange: (v: string) => void,
    error?: string,
    label?: string,
  ) => (
    <Select
      aria-label={label ?? t('masterData.mapping.target')}
      data={fieldOptions}
      searchable
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      error={error}
      miw={240}
    />
  );

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <TextInput
          label={t('masterData.mapping.field.name')}
          required
          maxLength={100}
          value={form.name}
          error={errors.name}
          onChange={(e) => set({ name: e.currentTarget.value })}
        />
        <Select
          label={t('masterData.mapping.field.declarationType')}
          data={[
            { value: '', label: t('masterData.mapping.anyType') },
            ...TYPES.map((x) => ({ value: x, label: x })),
          ]}
          value={form.declarationType}
          error={errors.declarationType}
          onChange={(v) => set({ declarationType: v ?? '' })}
        />
        <TextInput
          label={t('masterData.mapping.field.headerRow')}
          value={form.headerRow}
          error={errors.headerRow}
          onChange={(e) => set({ headerRow: e.currentTarget.value.replace(/\D/g, '') })}
        />
      </SimpleGrid>
      {staffCreating && (
        <CustomerPicker
          label={t('masterData.common.customer')}
          required
          value={customerId}
          onChange={(v) => setCustomerId(v)}
          error={errors.customerId}
        />
      )}

      <Title order={4}>{t('masterData.mapping.columns')}</Title>
      {errors.columns && (
        <Text c="red" size="sm">
          {errors.columns}
        </Text>
      )}
      <ScrollArea>
        <Table withTableBorder aria-label={t('masterData.mapping.columns')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('masterData.mapping.target')}</Table.Th>
              <Table.Th>{t('masterData.mapping.header')}</Table.Th>
              <Table.Th>{t('masterData.mapping.aliases')}</Table.Th>
              <Table.Th>{t('masterData.mapping.position')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {form.columns.map((c, i) => (
              <Table.Tr key={i}>
                <Table.Td>
                  {fieldSelect(
                    c.field,
                    (v) => setColumn(i, { field: v }),
                    errors[`columns[${i}].field`],
                  )}
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('masterData.mapping.header')}
                    value={c.header}
                    error={errors[`columns[${i}].header`]}
                    onChange={(e) => setColumn(i, { header: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('masterData.mapping.aliases')}
                    value={c.aliases}
                    onChange={(e) => setColumn(i, { aliases: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <TextInput
                    aria-label={t('masterData.mapping.position')}
                    value={c.position}
                    w={90}
                    error={errors[`columns[${i}].position`]}
                    onChange={(e) => setColumn(i, { position: e.currentTarget.value })}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('masterData.mapping.remove')}
                    onClick={() => set({ columns: form.columns.filter((_, j) => j !== i) })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} />}
          onClick={() =>
            set({
              columns: [...form.columns, { field: '', header: '', aliases: '', position: '' }],
            })
          }
        >
          {t('masterData.mapping.addColumn')}
        </Button>
      </Group>

      {(['translations', 'defaults'] as const).map((list) => (
        <Stack key={list} gap="xs">
          <Title order={4}>{t(`masterData.mapping.${list}`)}</Title>
          {form[list].map((p, i) => (
            <Group key={i} align="flex-start">
              {fieldSelect(
                p.field,
                (v) => setPair(list, i, { field: v }),
                errors[`${list}[${i}].field`],
              )}
              {list === 'translations' && (
                <TextInput
                  aria-label={t('masterData.mapping.from')}
                  placeholder={t('masterData.mapping.from')}
                  value={p.a}
                  error={errors[`${list}[${i}].from`]}
                  onChange={(e) => setPair(list, i, { a: e.currentTarget.value })}
                />
              )}
              <TextInput
                aria-label={t(
                  list === 'translations' ? 'masterData.mapping.to' : 'masterData.mapping.value',
                )}
                placeholder={t(
                  list === 'translations' ? 'masterData.mapping.to' : 'masterData.mapping.value',
                )}
                value={p.b}
                error={errors[`${list}[${i}].${list === 'translations' ? 'to' : 'value'}`]}
                onChange={(e) => setPair(list, i, { b: e.currentTarget.value })}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                mt={4}
                aria-label={t('masterData.mapping.remove')}
                onClick={() => set({ [list]: form[list].filter((_, j) => j !== i) })}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              onClick={() => set({ [list]: [...form[list], { field: '', a: '', b: '' }] })}
            >
              {t(
                list === 'translations'
                  ? 'masterData.mapping.addTranslation'
                  : 'masterData.mapping.addDefault',
              )}
            </Button>
          </Group>
        </Stack>
      ))}

      <Title order={4}>{t('masterData.mapping.preview.title')}</Title>
      <Group align="flex-end">
        <FileInput
          label={t('masterData.mapping.preview.file')}
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          value={file}
          onChange={setFile}
          clearable
          miw={260}
        />
        <Button variant="light" loading={preview.isPending} onClick={() => void runPreview()}>
          {t('masterData.mapping.preview.run')}
        </Button>
      </Group>
      <FormError message={previewError} />
      {result && <PreviewTable preview={result} />}

      <FormError message={formError} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t('masterData.common.cancel')}
        </Button>
        <Button loading={busy} onClick={() => void save()}>
          {t('masterData.common.save')}
        </Button>
      </Group>
    </Stack>
  );
}

/** The sample's rows as mapped: one row per sheet row, one column per mapped field. */
export function PreviewTable({ preview }: { preview: MappingPreview }) {
  const { t } = useTranslation();
  const fields = preview.columns.map((c) => c.field);
  const extra = [...new Set(preview.rows.flatMap((r) => r.cells.map((c) => c.field)))].filter(
    (f) => !fields.includes(f),
  );
  const all = [...fields, ...extra];
  return (
    <Stack gap="xs">
      {preview.missing.length > 0 && (
        <Alert color="yellow" variant="light">
          {t('masterData.mapping.preview.missing', { fields: preview.missing.join(', ') })}
        </Alert>
      )}
      <ScrollArea>
        <Table withTableBorder aria-label={t('masterData.mapping.preview.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('masterData.mapping.preview.row')}</Table.Th>
              {all.map((f) => {
                const col = preview.columns.find((c) => c.field === f);
                return (
                  <Table.Th key={f}>
                    <Text size="sm" fw={600}>
                      {f}
                    </Text>
                    {col?.foundBy && (
                      <Badge size="xs" variant="light">
                        {t(`masterData.mapping.preview.foundBy.${col.foundBy}`)} {col.column}
                      </Badge>
                    )}
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((r) => (
              <Table.Tr key={r.row}>
                <Table.Td>{r.row}</Table.Td>
                {all.map((f) => {
                  const cell = r.cells.find((c) => c.field === f);
                  return (
                    <Table.Td
                      key={f}
                      bg={cell?.problem ? 'var(--mantine-color-red-light)' : undefined}
                    >
                      <Text size="sm">{cell?.value ?? cell?.raw ?? ''}</Text>
                      {cell?.problem && (
                        <Text size="xs" c="red">
                          {cell.problem}
                        </Text>
                      )}
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {preview.rows.map((r) => (
        <Text key={r.row} size="sm" c={r.problems.length ? 'red' : 'dimmed'}>
          {t('masterData.mapping.preview.row')} {r.row}:{' '}
          {r.problems.length
            ? r.problems.map((p) => p.message).join('; ')
            : t('masterData.mapping.preview.noProblems')}
        </Text>
      ))}
    </Stack>
  );
}
