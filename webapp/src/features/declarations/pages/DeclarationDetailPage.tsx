// Detail pages `.../detail{,-c,-b}/:shipmentType?id=` of both areas: every field in
// groups, goods lines, the actions allowed now (with their dialogs), and the history
// timeline. Commands carry If-Match; a version conflict shows a reload prompt; after a
// command the page refetches with the command's position (never stale). On the customer's
// pages `?edit=1` (or no id, `?new=1`) shows the create/edit form.
import { useState, type ReactNode } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Grid,
  Group,
  Loader,
  Stack,
  Switch,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconArrowLeft, IconPrinter } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useRouteMeta } from '@/shared/routing/useRouteMeta';
import { declarationListPath, type Area } from '@/lib/declarations';
import { useSessionStore } from '@/lib/session';
import { useDeclT } from '@/shared/declarations/i18n';
import { useDeclaration } from '@/shared/declarations/api/getDeclaration';
import { useDeclarationHistory } from '../api/getDeclarationHistory';
import { useDeclarationTaxes } from '../api/getDeclarationTaxes';
import { TaxComparisonCard } from '../components/TaxComparisonCard';
import { declarationKeys } from '@/shared/declarations/api/keys';
import { allowedActions } from '@/shared/declarations/model/actions';
import { formatDateTime } from '@/lib/dates';
import { declarationFormPath, declarationPdfPath } from '@/lib/declarations';
import { typeCode } from '@/shared/declarations/model/types';
import { PageLayout } from '@/components/PageLayout';
import { ActionButtons } from '../components/ActionButtons';
import { RaiseExceptionButton } from '@/shared/clearance-exceptions/components/RaiseExceptionButton';
import { DeclarationView } from '../components/DeclarationView';
import { FormScreen } from '../components/FormScreen';
import { HistoryTimeline } from '@/shared/declarations/components/HistoryTimeline';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import { useDeclarationActions } from '../components/useDeclarationActions';
import { VersionConflictAlert } from '../components/VersionConflict';
import { CustomsCard } from '../components/CustomsCard';
import { DataIssuesPanel } from '../components/DataIssuesPanel';
import { isStaff } from '@/lib/roles';
import { useDeclarationCustoms } from '@/shared/customs/api/getDeclarationCustoms';
import { ByHandMarker, ReceiptBadge } from '@/shared/customs/components/ReceiptBadge';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

export default function DeclarationDetailPage() {
  const meta = useRouteMeta();
  const { shipmentType = '1' } = useParams();
  const [search] = useSearchParams();
  const area: Area = meta.area ?? 'customer';
  const id = search.get('id');
  const type = typeCode(meta.declarationClass ?? 'D', shipmentType);
  if (area === 'customer' && (!id || search.get('edit') === '1'))
    return <FormScreen declarationType={type} area={area} id={id} />;
  return <DeclarationDetail id={id} area={area} routeType={type} />;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}
      </Text>
      <div style={{ textAlign: 'right', minWidth: 0 }}>{children}</div>
    </Group>
  );
}

function DeclarationDetail({
  id,
  area,
  routeType,
}: {
  id: string | null;
  area: Area;
  routeType: string;
}) {
  const { t } = useDeclT();
  const { t: tg } = useTranslation();
  const typeName = useDeclarationTypeName();
  const navigate = useNavigate();
  const client = useQueryClient();
  const role = useSessionStore((s) => s.role);
  const query = useDeclaration(id);
  const history = useDeclarationHistory(id);
  const customs = useDeclarationCustoms(id);
  const taxes = useDeclarationTaxes(id);
  const [conflict, setConflict] = useState(false);
  const [showEmpty, setShowEmpty] = useState(false);

  const actions = useDeclarationActions({
    onEdit: (target) => navigate(declarationFormPath(area, target.declarationType, target.id)),
    onConflict: () => setConflict(true),
    onFieldErrors: (target, errors) =>
      navigate(declarationFormPath(area, target.declarationType, target.id), {
        state: { fieldErrors: errors },
      }),
    onDone: (action, _answer, target) => {
      setConflict(false);
      if (action === 'delete') navigate(declarationListPath(area, target.declarationType));
    },
  });

  if (!id)
    return (
      <Alert color="orange" role="alert">
        {t('detail.noId')}
      </Alert>
    );
  if (query.isLoading)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (query.isError || !query.data)
    return (
      <Alert color="red" role="alert">
        {t('detail.notFound')}
      </Alert>
    );

  const d = query.data;
  const allowed = allowedActions(role, d.status);
  const reload = () => {
    setConflict(false);
    void client.invalidateQueries({ queryKey: declarationKeys.detail(d.id) });
    void client.invalidateQueries({ queryKey: declarationKeys.history(d.id) });
    void client.invalidateQueries({ queryKey: ['declarations', 'customs', d.id] });
  };
  const numbers = customs.data;
  const complete = d.draftStatus === true || d.draftStatus === 1;

  return (
    <PageLayout
      title={t('detail.title', {
        type: typeName(d.declarationType),
        tracking: d.trackingNumber ?? '',
      })}
      badges={
        <>
          <StatusBadge status={d.status} size="lg" />
          {d.declarationStatus && d.declarationStatus !== numbers?.customsReceipt && (
            <Badge variant="outline" color="gray" size="lg" style={{ textTransform: 'none' }}>
              {t(`receipt.${d.declarationStatus}`, { defaultValue: d.declarationStatus })}
            </Badge>
          )}
          {numbers?.customsReceipt && (
            <ReceiptBadge code={numbers.customsReceipt} at={numbers.customsReceiptAt} size="lg" />
          )}
          {numbers?.movedByHand && <ByHandMarker size="lg" />}
        </>
      }
      subtitle={
        (d.declarationType !== routeType || numbers?.entryId || numbers?.cusCiqNo) && (
          <Group gap="md" wrap="wrap">
            {d.declarationType !== routeType && (
              <Text size="xs" c="dimmed">
                {typeName(d.declarationType)}
              </Text>
            )}
            {numbers?.entryId && (
              <Text size="sm" data-testid="entry-id">
                <Text span c="dimmed" size="sm">
                  {tg('customs.entryId')}{' '}
                </Text>
                <Text span ff="monospace" size="sm">
                  {numbers.entryId}
                </Text>
              </Text>
            )}
            {numbers?.cusCiqNo && (
              <Text size="sm" data-testid="cus-ciq-no">
                <Text span c="dimmed" size="sm">
                  {tg('customs.cusCiqNo')}{' '}
                </Text>
                <Text span ff="monospace" size="sm">
                  {numbers.cusCiqNo}
                </Text>
              </Text>
            )}
          </Group>
        )
      }
      actions={
        <>
          <Button
            variant="default"
            leftSection={<IconArrowLeft size={16} />}
            onClick={() => navigate(declarationListPath(area, d.declarationType))}
          >
            {t('common.back')}
          </Button>
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} />}
            component="a"
            href={declarationPdfPath(d.id)}
            target="_blank"
            rel="noopener"
          >
            {t('detail.print')}
          </Button>
          <RaiseExceptionButton area={area} declarationId={d.id} status={d.status} />
        </>
      }
    >
      {conflict && <VersionConflictAlert onReload={reload} />}

      <Card withBorder padding="sm">
        {allowed.length > 0 ? (
          <ActionButtons
            actions={allowed}
            loading={actions.pending}
            onAction={(a) =>
              actions.run(a, {
                id: d.id,
                version: d.version,
                status: d.status,
                declarationType: d.declarationType,
                trackingNumber: d.trackingNumber,
              })
            }
          />
        ) : (
          <Text size="sm" c="dimmed">
            {t('detail.noActions')}
          </Text>
        )}
      </Card>

      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <Group justify="flex-end">
              <Switch
                size="sm"
                label={t('detail.showEmpty')}
                checked={showEmpty}
                onChange={(e) => setShowEmpty(e.currentTarget.checked)}
              />
            </Group>
            {isStaff(role) && allowed.length > 0 && (d.status === 1 || d.status === 10) && (
              <DataIssuesPanel declaration={d} />
            )}
            <DeclarationView declaration={d} showEmpty={showEmpty} />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <Card withBorder padding="md">
              <Title order={2} size="h5" mb="sm">
                {t('detail.summary')}
              </Title>
              <Stack gap={6}>
                <Field label={t('detail.status')}>
                  <StatusBadge status={d.status} />
                </Field>
                {/* Completeness only matters while the form can still be edited and submitted. */}
                {(d.status === 0 || d.status === 11) && (
                  <Field label={t('detail.draftStatus')}>
                    <Tooltip
                      label={complete ? t('detail.draftComplete') : t('detail.draftIncomplete')}
                    >
                      <Badge
                        color={complete ? 'teal' : 'orange'}
                        variant="light"
                        size="sm"
                        style={{ textTransform: 'none' }}
                      >
                        {complete ? t('detail.draftComplete') : t('detail.draftIncomplete')}
                      </Badge>
                    </Tooltip>
                  </Field>
                )}
                <Field label={t('detail.customer')}>
                  <Text size="sm">{d.username}</Text>
                  {d.companyName && (
                    <Text size="xs" c="dimmed">
                      {d.companyName}
                    </Text>
                  )}
                  {area === 'staff' && (
                    <Text size="xs" c="dimmed" ff="monospace">
                      {d.customerId}
                    </Text>
                  )}
                </Field>
                <Field label={t('detail.version')}>
                  <Text size="sm">{d.version}</Text>
                </Field>
                <Field label={t('detail.createdAt')}>
                  <Text size="sm">{formatDateTime(d.createdAt)}</Text>
                </Field>
                <Field label={t('detail.updatedAt')}>
                  <Text size="sm">{formatDateTime(d.updatedAt)}</Text>
                </Field>
                {d.submittedAt && (
                  <Field label={t('detail.submittedAt')}>
                    <Text size="sm">{formatDateTime(d.submittedAt)}</Text>
                  </Field>
                )}
              </Stack>
            </Card>
            {taxes.data ? <TaxComparisonCard taxes={taxes.data} /> : null}
            <Card withBorder padding="md" component="section" aria-label={t('detail.history')}>
              <Title order={2} size="h5" mb="sm">
                {t('detail.history')}
              </Title>
              {history.isLoading ? (
                <Loader size="sm" />
              ) : (
                <HistoryTimeline entries={history.data ?? []} />
              )}
            </Card>
            <CustomsCard
              declarationId={d.id}
              status={d.status}
              staff={area === 'staff'}
              timeline={customs.data}
              loading={customs.isLoading}
              error={customs.error}
            />
          </Stack>
        </Grid.Col>
      </Grid>
      {actions.element}
    </PageLayout>
  );
}
