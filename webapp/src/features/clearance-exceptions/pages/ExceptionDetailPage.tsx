// `/clearance-exception/detail?id=` (staff) and `/customer-exception/detail?id=` (the
// customer's view). Staff: the actions allowed now, what is asked, channels and contacts,
// documents with upload and download, the history timeline and the delivery log. Customer:
// what is asked, upload, confirm, and their timeline; opening a notified exception records
// that the customer has seen it (2 -> 3).
import { useEffect, useRef } from 'react';
import {
  Alert,
  Anchor,
  Badge,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { useRouteMeta } from '@/shared/routing/useRouteMeta';
import { declarationDetailPath } from '@/lib/declarations';
import { useSessionStore } from '@/lib/session';
import { isCustomer } from '@/lib/roles';
import { ApiError } from '@/lib/request';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useException } from '../api/getException';
import { useExceptionHistory } from '../api/getExceptionHistory';
import { useAcknowledgeException } from '../api/acknowledgeException';
import { canUpload } from '@/shared/clearance-exceptions/model/statuses';
import {
  CHANNEL_FLAGS,
  CONTACT_FIELDS,
  type ClearanceException,
} from '@/shared/clearance-exceptions/model/types';
import {
  directionOfShipment,
  exceptionListPath,
  type Area,
} from '@/shared/clearance-exceptions/model/paths';
import { ExceptionStatusBadge } from '@/shared/clearance-exceptions/components/StatusBadge';
import {
  NoticeDeliveryBadge,
  NoticeNotDelivered,
} from '@/shared/clearance-exceptions/components/NoticeDeliveryBadge';
import { ExceptionActions } from '../components/ExceptionActions';
import { ExceptionHistory } from '../components/ExceptionHistory';
import { DeliveryLog } from '../components/DeliveryLog';
import { DocumentsPanel } from '../components/DocumentsPanel';
import { unsuppliedDocuments, useDocumentName } from '../model/documents';
import { RequestSummary } from '../components/RequestSummary';
import { WaitingCell } from '@/shared/clearance-exceptions/components/WaitingCell';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function ChannelsAndContacts({ e }: { e: ClearanceException }) {
  const { t } = useExcT();
  const form = e.form ?? {};
  const channels = CHANNEL_FLAGS.filter((c) => form[c]).map((c) => t(`channel.${c}`));
  if (form.personalPhone) channels.push(`${t('channel.personalPhone')}: ${form.personalPhone}`);
  if (form.personalEmail) channels.push(`${t('channel.personalEmail')}: ${form.personalEmail}`);
  const contacts = CONTACT_FIELDS.filter((f) => form.notificationContact?.[f]);
  return (
    <Stack gap={4}>
      <Group gap={4}>
        {channels.length === 0 ? (
          <Text size="sm">{t('common.none')}</Text>
        ) : (
          channels.map((c) => (
            <Badge key={c} variant="outline" color="gray" style={{ textTransform: 'none' }}>
              {c}
            </Badge>
          ))
        )}
      </Group>
      {contacts.map((f) => (
        <Text size="sm" key={f}>
          <Text span c="dimmed" size="sm">
            {t(`contact.${f}`)}:
          </Text>{' '}
          {form.notificationContact?.[f]}
        </Text>
      ))}
      {(e.contacts ?? []).length > 0 && (
        <>
          <Text size="sm" fw={500} mt="xs">
            {t('detail.lastNotice')}
          </Text>
          {(e.contacts ?? []).map((c, i) => (
            <Text size="sm" key={`${c.channel}-${c.address}-${i}`}>
              {t(`delivery.channel.${c.channel}`, { defaultValue: c.channel })} →{' '}
              {t(`contact.${c.party}`, { defaultValue: c.party })}: {c.address}
            </Text>
          ))}
        </>
      )}
    </Stack>
  );
}

export default function ExceptionDetailPage() {
  const meta = useRouteMeta();
  const area: Area = meta.area ?? 'staff';
  const { t } = useExcT();
  const documentName = useDocumentName();
  const { t: tg } = useTranslation();
  const typeName = useDeclarationTypeName();
  const role = useSessionStore((s) => s.role);
  const customer = isCustomer(role);
  const [search] = useSearchParams();
  const id = search.get('id');
  const query = useException(id);
  const history = useExceptionHistory(id);
  const acknowledge = useAcknowledgeException();
  const acknowledged = useRef<string | null>(null);
  const e = query.data;

  // DOMAIN.md 2 -> 3: the customer opening the notice is the acknowledgement.
  useEffect(() => {
    if (!customer || !e || e.status !== 2 || acknowledged.current === e.id) return;
    acknowledged.current = e.id;
    acknowledge.mutate({ id: e.id, version: e.version });
  }, [customer, e, acknowledge]);

  const back = (
    <Anchor
      component={Link}
      to={exceptionListPath(area, directionOfShipment(e?.shipmentType))}
      size="sm"
    >
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('common.back')}
      </Group>
    </Anchor>
  );

  if (!id || query.isError) {
    return (
      <Stack>
        {back}
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} role="alert">
          {!id
            ? t('detail.noId')
            : query.error instanceof ApiError && query.error.status === 404
              ? t('detail.notFound')
              : t('common.loadFailed', { message: (query.error as Error).message })}
        </Alert>
      </Stack>
    );
  }
  if (!e) {
    return (
      <Stack>
        {back}
        <Skeleton h={32} w={320} />
        <Skeleton h={220} />
      </Stack>
    );
  }

  const hasChanges = (e.proposedChanges ?? []).length > 0;
  const uploadAllowed = canUpload(role, e.status);

  return (
    <PageLayout
      back={back}
      title={t('detail.title', { trackingNumber: e.trackingNumber ?? '' })}
      badges={
        <Group gap={4}>
          <ExceptionStatusBadge status={e.status} size="md" />
          <NoticeDeliveryBadge delivery={e.noticeDelivery} />
        </Group>
      }
      subtitle={
        <Group gap="md">
          <Anchor
            component={Link}
            to={declarationDetailPath(area, e.declarationType, e.declarationId)}
            size="sm"
          >
            {t('detail.openDeclaration')} ({typeName(e.declarationType)})
          </Anchor>
          {!customer && (
            <Text size="sm" c="dimmed">
              {e.username}
              {e.companyName ? ` · ${e.companyName}` : ''}
            </Text>
          )}
          <WaitingCell
            status={e.status}
            waitingOn={e.waitingOn}
            statusSince={e.statusSince}
            overdue={e.overdue}
            ageMinutes={e.ageMinutes}
          />
        </Group>
      }
      actions={
        <ExceptionActions
          id={e.id}
          version={e.version}
          status={e.status}
          role={role}
          hasChanges={hasChanges}
          serverActions={e.actions}
          channels={e.channels}
          unsupplied={unsuppliedDocuments(e.requestedDocuments ?? [], e.documents ?? [])}
          documentName={documentName}
        />
      }
    >
      {customer && (
        <Alert color="blue" variant="light">
          {e.status === 4
            ? t('customer.underReview')
            : e.status === 6
              ? t('customer.done')
              : e.status === 7
                ? t('customer.voided')
                : `${t('customer.intro')} ${t('customer.confirmHint')}`}
        </Alert>
      )}
      {!customer && <NoticeNotDelivered delivery={e.noticeDelivery} />}
      {!customer && e.declarationStatus !== null && e.declarationStatus !== undefined && (
        <Text size="sm" c="dimmed">
          {t('detail.previousStatus', {
            status: tg(`declarationStatus.${e.declarationStatus}`),
          })}
        </Text>
      )}
      {e.lastReason && (e.status === 3 || e.status === 7) && (
        <Alert color="orange" variant="light" title={t('detail.lastReason')}>
          {e.lastReason}
        </Alert>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack>
            <Section title={customer ? t('customer.whatIsAsked') : t('detail.requested')}>
              <RequestSummary data={e.form ?? {}} proposedChanges={e.proposedChanges ?? []} />
            </Section>
            <Section title={t('detail.files')}>
              <DocumentsPanel
                exceptionId={e.id}
                documents={e.documents ?? []}
                requested={e.requestedDocuments ?? []}
                missing={e.missingDocuments ?? []}
                canUpload={uploadAllowed}
              />
            </Section>
            {!customer && (
              <Section title={t('detail.channels')}>
                <ChannelsAndContacts e={e} />
              </Section>
            )}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Stack>
            <Section title={t('detail.history')}>
              {history.data ? (
                <ExceptionHistory entries={history.data} />
              ) : history.isError ? (
                <Text size="sm" c="red" role="alert">
                  {t('common.loadFailed', { message: (history.error as Error).message })}
                </Text>
              ) : (
                <Skeleton h={120} />
              )}
            </Section>
            {!customer && e.deliveries && (
              <Section title={t('detail.deliveries')}>
                <DeliveryLog deliveries={e.deliveries} />
              </Section>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </PageLayout>
  );
}
