// /platform-mgt/reference-import: a new edition of a reference table (the tariff, the tax
// rules, the personal-articles categories, the exchange rates ...). Choose the table, the
// CSV and the day it takes effect; the server reads it and shows the rows and what cannot
// be read (line and column); only then can it be imported (docs/taxes.md).
import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  FileInput,
  Group,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLayout } from '@/components/PageLayout';
import { ApiError } from '@/lib/request';
import {
  useImportReferenceTable,
  type ImportPreview,
} from '@/features/reference-import/api/importReferenceTable';

/** The tables an edition is usually imported for; any table name of the server is accepted. */
const TABLES = ['tariff', 'tax-rules', 'personal-articles', 'exchange-rates', 'countries', 'units'];

export default function ReferenceImportPage() {
  const { t } = useTranslation();
  const run = useImportReferenceTable();
  const [table, setTable] = useState<string>('tariff');
  const [file, setFile] = useState<File | null>(null);
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = async (confirm: boolean) => {
    if (!file) return;
    setError(null);
    try {
      const answer = await run.mutateAsync({
        table,
        file,
        effectiveFrom: effectiveFrom.trim(),
        confirm,
      });
      setPreview(answer);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  const changed = () => setPreview(null);
  const readable = preview !== null && preview.problems.length === 0;
  const sampleColumns = preview?.columns.slice(0, 8) ?? [];

  return (
    <PageLayout title={t('platform.referenceImport.title')}>
      <Stack gap="md" maw={1100}>
        <Text size="sm" c="dimmed">
          {t('platform.referenceImport.intro')}
        </Text>
        <Card withBorder padding="md">
          <Stack gap="sm">
            <Group grow align="flex-start">
              <Select
                label={t('platform.referenceImport.table')}
                data={TABLES}
                value={table}
                onChange={(v) => {
                  setTable(v ?? 'tariff');
                  changed();
                }}
                allowDeselect={false}
              />
              <TextInput
                label={t('platform.referenceImport.effectiveFrom')}
                placeholder="2027-01-01"
                value={effectiveFrom}
                onChange={(e) => {
                  setEffectiveFrom(e.currentTarget.value);
                  changed();
                }}
              />
              <FileInput
                label={t('platform.referenceImport.file')}
                accept=".csv,text/csv"
                value={file}
                onChange={(f) => {
                  setFile(f);
                  changed();
                }}
                clearable
              />
            </Group>
            <Group>
              <Button
                variant="default"
                disabled={!file}
                loading={run.isPending}
                onClick={() => send(false)}
              >
                {t('platform.referenceImport.read')}
              </Button>
              <Button
                disabled={!readable || preview?.imported != null}
                loading={run.isPending}
                onClick={() => send(true)}
              >
                {t('platform.referenceImport.confirm')}
              </Button>
            </Group>
            {error ? (
              <Alert color="red" data-testid="import-error">
                {error}
              </Alert>
            ) : null}
          </Stack>
        </Card>
        {preview ? (
          <Card withBorder padding="md" data-testid="import-preview">
            <Stack gap="xs">
              <Text size="sm">
                {t('platform.referenceImport.summary', {
                  table: preview.table,
                  rows: preview.rows,
                  from: preview.effectiveFrom,
                })}
              </Text>
              {preview.imported ? (
                <Alert color="green" data-testid="import-done">
                  {t('platform.referenceImport.done', {
                    version: preview.imported.version,
                    from: preview.effectiveFrom,
                  })}
                </Alert>
              ) : null}
              {preview.problems.map((p, i) => (
                <Alert key={i} color="red" data-testid="import-problem">
                  {p.line != null ? `${t('platform.referenceImport.line', { line: p.line })} ` : ''}
                  {p.column ? `${t('platform.referenceImport.column', { column: p.column })} ` : ''}
                  {p.message}
                </Alert>
              ))}
              {preview.sample.length > 0 ? (
                <ScrollArea>
                  <Table fz="xs" withTableBorder>
                    <Table.Thead>
                      <Table.Tr>
                        {sampleColumns.map((c) => (
                          <Table.Th key={c}>{c}</Table.Th>
                        ))}
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {preview.sample.map((row, i) => (
                        <Table.Tr key={i}>
                          {sampleColumns.map((c) => (
                            <Table.Td key={c}>
                              {String((row as Record<string, unknown>)[c] ?? '')}
                            </Table.Td>
                          ))}
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </ScrollArea>
              ) : null}
            </Stack>
          </Card>
        ) : null}
      </Stack>
    </PageLayout>
  );
}
