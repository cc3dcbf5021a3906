// `/clearance-exception/createException?declarationId=` (staff) and the customer's
// `/customer-exception/createException`: find the declaration by tracking number (only
// 1 unprocessed and 2 reviewed may take an exception), then the exception form. Client
// rules first; the server's field errors land on the same inputs.
import { useRef, useState } from 'react';
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { IconAlertTriangle, IconArrowLeft, IconSearch, IconSend } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import { useRouteMeta } from '@/shared/routing/useRouteMeta';
import { ApiError } from '@/lib/request';
import { showMessage } from '@/lib/message';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import { useDeclaration } from '@/shared/declarations/api/getDeclaration';
import { useDeclarations } from '@/shared/declarations/api/getDeclarations';
import { newIdempotencyKey } from '@/shared/declarations/model/formValues';
import type { Declaration } from '@/shared/declarations/model/types';
import { useExcT } from '@/shared/clearance-exceptions/i18n';
import { useCreateException } from '../api/createException';
import {
  emptyExceptionForm,
  customerChannels,
  toExceptionBody,
  validateExceptionForm,
  type ExceptionFormValues,
} from '../model/form';
import {
  directionOfShipment,
  exceptionCreatePath,
  exceptionDetailPath,
  exceptionListPath,
  type Area,
} from '@/shared/clearance-exceptions/model/paths';
import { ExceptionForm } from '../components/ExceptionForm';
import { ELIGIBLE_DECLARATION_STATUSES } from '@/shared/clearance-exceptions/model/statuses';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

function DeclarationLookup({ area }: { area: Area }) {
  const { t } = useExcT();
  const typeName = useDeclarationTypeName();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [tracking, setTracking] = useState('');
  const query = useDeclarations(
    { trackingNumber: tracking, shipmentType: -1, pageNo: 1, pageSize: 10 },
    Boolean(tracking),
  );
  const rows = query.data?.records ?? [];
  return (
    <Paper withBorder p="md">
      <Group
        align="flex-end"
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          setTracking(text.trim());
        }}
      >
        <TextInput
          label={t('form.lookup')}
          placeholder={t('form.lookupPlaceholder')}
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          w={320}
          data-autofocus
        />
        <Button type="submit" leftSection={<IconSearch size={16} />} disabled={!text.trim()}>
          {t('form.lookupButton')}
        </Button>
      </Group>
      {tracking && query.isSuccess && rows.length === 0 && (
        <Text size="sm" c="dimmed" mt="sm" role="status">
          {t('form.noMatch')}
        </Text>
      )}
      {rows.length > 0 && (
        <Table mt="sm" withTableBorder>
          <Table.Tbody>
            {rows.map((r) => {
              const eligible = ELIGIBLE_DECLARATION_STATUSES.includes(r.status);
              return (
                <Table.Tr key={r.id}>
                  <Table.Td>{r.trackingNumber}</Table.Td>
                  <Table.Td>{typeName(r.declarationType, { code: true })}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={r.status} />
                  </Table.Td>
                  <Table.Td>{r.username}</Table.Td>
                  <Table.Td>
                    {eligible ? (
                      <Button
                        size="compact-sm"
                        onClick={() => navigate(exceptionCreatePath(area, r.id))}
                      >
                        {t('form.pick')}
                      </Button>
                    ) : (
                      <Text size="xs" c="dimmed">
                        {t('form.notEligible')}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}

function DeclarationCard({ d, area }: { d: Declaration; area: Area }) {
  const { t } = useExcT();
  const typeName = useDeclarationTypeName();
  return (
    <Paper withBorder p="md">
      <Group justify="space-between">
        <Group gap="md">
          <Text fw={600}>{d.trackingNumber}</Text>
          <Text size="sm">{typeName(d.declarationType, { code: true })}</Text>
          <StatusBadge status={d.status} />
          <Text size="sm" c="dimmed">
            {d.username}
            {d.companyName ? ` · ${d.companyName}` : ''}
          </Text>
        </Group>
        <Anchor component={Link} to={exceptionCreatePath(area)} size="sm">
          {t('form.change')}
        </Anchor>
      </Group>
      {!ELIGIBLE_DECLARATION_STATUSES.includes(d.status) && (
        <Alert color="orange" mt="sm" icon={<IconAlertTriangle size={18} />}>
          {t('form.notEligible')}
        </Alert>
      )}
    </Paper>
  );
}

function CreateForm({ declaration, area }: { declaration: Declaration; area: Area }) {
  const { t } = useExcT();
  const navigate = useNavigate();
  const [values, setValues] = useState<ExceptionFormValues>(() => emptyExceptionForm(declaration));
  const audience = area === 'customer' ? 'customer' : 'staff';
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const idempotencyKey = useRef(newIdempotencyKey());
  const create = useCreateException();

  const submit = async () => {
    const found = validateExceptionForm(values, audience);
    const messages = Object.fromEntries(Object.entries(found).map(([k, v]) => [k, t(v)]));
    setErrors(messages);
    if (Object.keys(found).length > 0) {
      setProblem(t('form.hasErrors'));
      return;
    }
    setProblem(null);
    try {
      const answer = await create.mutateAsync({
        declarationId: declaration.id,
        form: toExceptionBody(audience === 'customer' ? customerChannels(values) : values),
        idempotencyKey: idempotencyKey.current,
      });
      showMessage('success', t('form.created'));
      navigate(exceptionDetailPath(area, answer.id));
    } catch (e) {
      if (e instanceof ApiError && e.fieldErrors.length > 0) {
        setErrors(Object.fromEntries(e.fieldErrors.map((f) => [f.field, f.message])));
        setProblem(e.fieldErrors.map((f) => `${f.field}: ${f.message}`).join('; '));
      } else {
        setProblem(e instanceof Error ? e.message : String(e));
      }
    }
  };

  return (
    <Stack>
      <ExceptionForm
        values={values}
        onChange={setValues}
        errors={errors}
        customerId={declaration.customerId}
        audience={audience}
      />
      {problem && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end" wrap="wrap">
        <Text size="sm" c="dimmed" style={{ flex: 1, minWidth: 200 }}>
          {area === 'customer' ? t('form.customer.submitHint') : t('form.submitHint')}
        </Text>
        <Button
          leftSection={<IconSend size={16} />}
          loading={create.isPending}
          disabled={!ELIGIBLE_DECLARATION_STATUSES.includes(declaration.status)}
          onClick={() => void submit()}
        >
          {area === 'customer' ? t('form.customer.submit') : t('form.submit')}
        </Button>
      </Group>
    </Stack>
  );
}

export default function ExceptionCreatePage() {
  const meta = useRouteMeta();
  const area: Area = meta.area ?? 'staff';
  const { t } = useExcT();
  const [search] = useSearchParams();
  const declarationId = search.get('declarationId');
  const declaration = useDeclaration(declarationId);
  const d = declaration.data;

  const back = (
    <Anchor
      component={Link}
      to={exceptionListPath(area, directionOfShipment(d?.shipmentType))}
      size="sm"
    >
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('common.back')}
      </Group>
    </Anchor>
  );

  return (
    <PageLayout back={back} title={t('form.title')} maw={1100}>
      {!declarationId ? (
        <DeclarationLookup area={area} />
      ) : declaration.isError ? (
        <Alert color="orange" icon={<IconAlertTriangle size={18} />} role="alert">
          {t('common.loadFailed', { message: (declaration.error as Error).message })}
        </Alert>
      ) : !d ? (
        <Skeleton h={120} />
      ) : (
        <>
          <DeclarationCard d={d} area={area} />
          <CreateForm key={d.id} declaration={d} area={area} />
        </>
      )}
    </PageLayout>
  );
}
