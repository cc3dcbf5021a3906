// A customer's saved notice contacts: a table to add, change and remove rows, saved whole
// (If-Match); the server names each bad field (`contacts[2].value`) next to its cell.
import { phoneOk } from '@/lib/fieldRules';
import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  ColorSwatch,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { ApiError } from '@/lib/request';
import { showMessage } from '@/lib/message';
import { useContactT } from '@/shared/contact-book/i18n';
import { useContactBook, useSaveContactBook } from '@/shared/contact-book/api/contactBook';
import {
  CHANNELS,
  COLORS,
  SIDES,
  swatch,
  type ContactBook,
  type SavedContact,
} from '@/shared/contact-book/model/contacts';

export function ContactBookEditor({ customerId }: { customerId: string }) {
  const book = useContactBook(customerId);
  // Kept here: a conflict reloads the book, which starts the editor afresh.
  const [problem, setProblem] = useState<string | null>(null);
  if (book.isPending) return <Loader size="sm" />;
  if (book.isError) return <Alert color="red">{book.error.message}</Alert>;
  return (
    <Editor
      key={book.data.version}
      customerId={customerId}
      book={book.data}
      problem={problem}
      setProblem={setProblem}
    />
  );
}

function Editor({
  customerId,
  book,
  problem,
  setProblem,
}: {
  customerId: string;
  book: ContactBook;
  problem: string | null;
  setProblem: (p: string | null) => void;
}) {
  const { t } = useContactT();
  const save = useSaveContactBook(customerId);
  const [rows, setRows] = useState<SavedContact[]>(
    Array.isArray(book.contacts) ? book.contacts : [],
  );
  const [errors, setErrors] = useState<Record<string, string>>({});

  const patch = (i: number, p: Partial<SavedContact>) =>
    setRows(rows.map((r, j) => (j === i ? { ...r, ...p } : r)));

  const onSave = async () => {
    setErrors({});
    setProblem(null);
    // The one phone rule of every form (the server checks it too).
    const bad = Object.fromEntries(
      rows.flatMap((r, i) =>
        r.channel === 'phone' && r.value.trim() && !phoneOk(r.value)
          ? [[`contacts[${i}].value`, t('badPhone')]]
          : [],
      ),
    );
    if (Object.keys(bad).length > 0) {
      setErrors(bad);
      return;
    }
    try {
      await save.mutateAsync({ version: book.version, contacts: rows });
      showMessage('success', t('saved'));
    } catch (e) {
      if (e instanceof ApiError && e.fieldErrors.length > 0) {
        setErrors(Object.fromEntries(e.fieldErrors.map((f) => [f.field, f.message])));
      } else if (e instanceof ApiError && e.status === 409) {
        setProblem(t('conflict'));
      } else {
        setProblem(e instanceof Error ? e.message : String(e));
      }
    }
  };

  const err = (i: number, f: string) => errors[`contacts[${i}].${f}`];

  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('intro')}
      </Text>
      <Paper withBorder p="md">
        {rows.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('empty')}
          </Text>
        ) : (
          <Table aria-label={t('title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('column.channel')}</Table.Th>
                <Table.Th>{t('column.side')}</Table.Th>
                <Table.Th>{t('column.name')}</Table.Th>
                <Table.Th>{t('column.value')}</Table.Th>
                <Table.Th>{t('column.color')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r, i) => (
                <Table.Tr key={i}>
                  <Table.Td>
                    <Select
                      aria-label={`${t('column.channel')} ${i + 1}`}
                      data={CHANNELS.map((c) => ({ value: c, label: t(`channel.${c}`) }))}
                      value={r.channel}
                      allowDeselect={false}
                      error={err(i, 'channel')}
                      onChange={(v) => v && patch(i, { channel: v as SavedContact['channel'] })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`${t('column.side')} ${i + 1}`}
                      data={SIDES.map((s) => ({ value: s, label: t(`side.${s}`) }))}
                      value={r.side}
                      allowDeselect={false}
                      error={err(i, 'side')}
                      onChange={(v) => v && patch(i, { side: v as SavedContact['side'] })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`${t('column.name')} ${i + 1}`}
                      value={r.name}
                      maxLength={50}
                      error={err(i, 'name')}
                      onChange={(e) => patch(i, { name: e.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <TextInput
                      aria-label={`${t('column.value')} ${i + 1}`}
                      placeholder={t(`valueHint.${r.channel}`)}
                      value={r.value}
                      maxLength={100}
                      error={err(i, 'value')}
                      onChange={(e) => patch(i, { value: e.currentTarget.value })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Select
                      aria-label={`${t('column.color')} ${i + 1}`}
                      data={COLORS.map((c) => ({ value: c, label: t(`color.${c}`) }))}
                      value={r.color || 'gray'}
                      allowDeselect={false}
                      error={err(i, 'color')}
                      leftSection={<ColorSwatch size={12} color={swatch(r.color)} />}
                      onChange={(v) => v && patch(i, { color: v })}
                    />
                  </Table.Td>
                  <Table.Td>
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={`${t('remove')} ${i + 1}`}
                      onClick={() => setRows(rows.filter((_, j) => j !== i))}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {problem && (
          <Alert color="red" mt="sm" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="space-between" mt="sm">
          <Button
            variant="light"
            leftSection={<IconPlus size={14} />}
            onClick={() =>
              setRows([
                ...rows,
                { channel: 'email', side: 'shipTo', name: '', value: '', color: 'gray' },
              ])
            }
          >
            {t('add')}
          </Button>
          <Button onClick={() => void onSave()} loading={save.isPending}>
            {t('save')}
          </Button>
        </Group>
      </Paper>
    </Stack>
  );
}
