// `/page-pdf?id=`: a print view of one declaration, outside the shell, laid out for A4
// (print CSS, no chrome); the browser saves it as PDF. A Print button opens the dialog.
import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconPrinter } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useDeclT } from '@/shared/declarations/i18n';
import { useDeclaration } from '@/shared/declarations/api/getDeclaration';
import { useDeclarationHistory } from '../api/getDeclarationHistory';
import { formatDateTime } from '@/lib/dates';
import { DeclarationView } from '../components/DeclarationView';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import './print.css';

export default function DeclarationPdfPage() {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const [search] = useSearchParams();
  const id = search.get('id');
  const query = useDeclaration(id);
  const history = useDeclarationHistory(id);

  if (!id)
    return (
      <Center p="xl">
        <Alert color="orange">{t('detail.noId')}</Alert>
      </Center>
    );
  if (query.isLoading)
    return (
      <Center p="xl">
        <Loader />
      </Center>
    );
  if (query.isError || !query.data)
    return (
      <Center p="xl">
        <Alert color="red">{t('detail.notFound')}</Alert>
      </Center>
    );
  const d = query.data;
  return (
    <div className="declaration-print">
      <Group justify="flex-end" className="no-print" mb="sm">
        <Button leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
          {t('pdf.print')}
        </Button>
      </Group>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-end">
          <div>
            <Text size="xs" c="dimmed">
              {tg('app.title')}
            </Text>
            <Title order={1} size="h3">
              {t('pdf.title')} · {tg(`declarationType.${d.declarationType}`)}
            </Title>
          </div>
          <Stack gap={2} align="flex-end">
            <Text fw={700} ff="monospace" size="lg">
              {d.trackingNumber}
            </Text>
            <Group gap={6}>
              <StatusBadge status={d.status} />
              {d.declarationStatus && (
                <Badge variant="outline" color="gray" size="sm" style={{ textTransform: 'none' }}>
                  {t(`receipt.${d.declarationStatus}`, { defaultValue: d.declarationStatus })}
                </Badge>
              )}
            </Group>
          </Stack>
        </Group>
        <Text size="xs" c="dimmed">
          {t('detail.customer')}: {d.username}
          {d.companyName ? ` · ${d.companyName}` : ''} · {t('detail.version')} {d.version} ·{' '}
          {t('detail.updatedAt')} {formatDateTime(d.updatedAt)} ·{' '}
          {t('pdf.printedAt', { at: dayjs().format('YYYY-MM-DD HH:mm') })}
        </Text>
        <DeclarationView declaration={d} print />
        {history.data && history.data.length > 0 && (
          <section className="print-section">
            <Title order={3} size="h6" mb={4} className="print-section-title">
              {t('detail.history')}
            </Title>
            <Table withTableBorder fz="xs" verticalSpacing={2}>
              <Table.Tbody>
                {history.data.map((e) => (
                  <Table.Tr key={e.version}>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(e.at)}</Table.Td>
                    <Table.Td>{e.actor.name}</Table.Td>
                    <Table.Td>
                      {t(`history.action.${e.action}`, { defaultValue: e.action })}
                    </Table.Td>
                    <Table.Td>
                      {e.fromStatus !== null ? `${tg(`declarationStatus.${e.fromStatus}`)} → ` : ''}
                      {e.toStatus !== null ? tg(`declarationStatus.${e.toStatus}`) : ''}
                    </Table.Td>
                    <Table.Td>
                      {[
                        e.reason,
                        e.receiptCode,
                        e.changes?.length ? t('history.changes', { count: e.changes.length }) : '',
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </section>
        )}
      </Stack>
    </div>
  );
}
