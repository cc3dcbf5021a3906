// Create and edit form of a declaration (B, C, D; import and export): every field of the
// Declaration and Shipment forms in collapsible groups (`FormSections`: B/C lead with the
// shipment form and goods lines, D with the full header), reference selects, goods lines, client-side rules
// mirroring the server's, the server's field errors on the right inputs. "Save draft" is
// always possible (POST, or PUT with If-Match); "Submit" validates, saves, then submits.
import { useMemo, useRef, useState } from 'react';
import {
  Accordion,
  Alert,
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconDeviceFloppy, IconInfoCircle, IconSend } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useCustomer } from '@/shared/customers/api/getCustomer';
import { CustomerPicker } from '@/shared/customers/components/CustomerPicker';
import type { Area, DeclarationType } from '@/lib/declarations';
import { message } from '@/lib/message';
import { ApiError, type FieldError } from '@/lib/request';
import { useSessionStore } from '@/lib/session';
import { isStaff } from '@/lib/roles';
import { useDeclT } from '@/shared/declarations/i18n';
import { useCreateDeclaration } from '@/shared/declarations/api/createDeclaration';
import { useReferences } from '@/shared/declarations/api/getReference';
import { useSubmitDeclaration } from '@/shared/declarations/api/submitDeclaration';
import { useUpdateDeclaration } from '../api/updateDeclaration';
import { mayEdit, moveTarget } from '@/shared/declarations/model/actions';
import {
  FORM_TABLES,
  groupOfPath,
  orderedGroups,
  primaryGroupIds,
} from '@/shared/declarations/model/fields';
import {
  newIdempotencyKey,
  toFormValues,
  toPayload,
  type DeclarationFormValues,
} from '@/shared/declarations/model/formValues';
import { declarationDetailPath, declarationFormPath } from '@/lib/declarations';
import type { Declaration } from '@/shared/declarations/model/types';
import { classOf } from '@/shared/declarations/model/types';
import {
  currencyWarnings,
  markBlankLine,
  toFormPath,
  toServerPath,
  validateDraft,
  validateFull,
  type ReferenceLookup,
  type Violation,
} from '@/shared/declarations/model/validation';
import { FormSections } from '@/shared/declarations/components/FormSections';
import { StatusBadge } from '@/shared/declarations/components/StatusBadge';
import { VersionConflictAlert } from './VersionConflict';
import { useStartingDefaults } from './useStartingDefaults';
import { PageLayout } from '@/components/PageLayout';
import { useChangeLabel } from '@/shared/declarations/components/useChangeLabel';
import { useDeclarationTypeName } from '@/shared/declarations/typeName';

export interface DeclarationFormProps {
  declarationType: DeclarationType;
  area: Area;
  /** The declaration being edited; absent for a new one. */
  existing?: Declaration;
  /** Reload the declaration from the server (after a version conflict). */
  onReload?: () => void;
  /** Server field errors to show at once (a submit refused elsewhere). */
  initialErrors?: FieldError[];
}

export function DeclarationForm({
  declarationType,
  area,
  existing,
  onReload,
  initialErrors,
}: DeclarationFormProps) {
  const { t } = useDeclT();
  const { t: tg, i18n } = useTranslation();
  const typeName = useDeclarationTypeName();
  const navigate = useNavigate();
  const role = useSessionStore((s) => s.role);
  const staff = isStaff(role);
  const cls = classOf(declarationType);

  const initialProblems = useMemo(
    () => (initialErrors ?? []).map((e) => ({ path: toFormPath(e.field), message: e.message })),
    // Only at mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );
  const form = useForm<DeclarationFormValues>({
    initialValues: toFormValues(existing),
    initialErrors: Object.fromEntries(initialProblems.map((p) => [p.path, p.message])),
  });
  const idRef = useRef<string | undefined>(existing?.id);
  const versionRef = useRef<number | undefined>(existing?.version);
  const [version, setVersion] = useState(existing?.version);
  const idempotencyKey = useRef(newIdempotencyKey());
  const status = existing?.status ?? 0;

  // Staff filing for a customer from the archive arrive with `?customerId=` preselected.
  const [search] = useSearchParams();
  const [customerId, setCustomerId] = useState(() => search.get('customerId') ?? '');
  const [customerError, setCustomerError] = useState<string | null>(null);
  const preselected = useCustomer(staff && !existing ? search.get('customerId') : null);
  const defaults = useStartingDefaults(form, declarationType, {
    isNew: !existing,
    staff,
    customerId,
  });

  const allIds = useMemo(
    () => ['owning', ...orderedGroups(cls).map((g) => g.id), 'goods', 'products'],
    [cls],
  );
  const [open, setOpen] = useState<string[]>(() => [
    'owning',
    ...primaryGroupIds(cls),
    'goods',
    ...initialProblems.map((p) => groupOfPath(p.path)),
  ]);

  const refs = useReferences(FORM_TABLES);
  const lookup: ReferenceLookup = (table, code) => {
    const rows = refs[table as keyof typeof refs];
    return rows ? rows.some((r) => r.code === code) : undefined;
  };

  const [problems, setProblems] = useState<{ path: string; message: string }[]>(initialProblems);
  const [formError, setFormError] = useState<string | null>(null);
  const [conflict, setConflict] = useState(false);
  const create = useCreateDeclaration();
  const update = useUpdateDeclaration();
  const submitAction = useSubmitDeclaration();
  const busy = create.isPending || update.isPending || submitAction.isPending;
  const changeLabel = useChangeLabel();

  const showErrors = (all: { path: string; message: string }[]) => {
    // Once each: the first problem of a field is the one shown.
    const list = all.filter((e, i) => all.findIndex((x) => x.path === e.path) === i);
    const errors: Record<string, string> = {};
    for (const e of list) errors[e.path] = e.message;
    form.setErrors(errors);
    setProblems(list);
    if (list.length > 0) {
      setOpen((o) => [...new Set([...o, ...list.map((e) => groupOfPath(e.path))])]);
      message.error(t('form.fixErrors', { count: list.length }));
      // Once the groups have opened, bring the first marked input into view.
      window.setTimeout(() => {
        const first = document.querySelector<HTMLElement>('[aria-invalid="true"]');
        first?.scrollIntoView({ block: 'center', behavior: 'smooth' });
        first?.focus({ preventScroll: true });
      }, 350);
    }
  };
  const showViolations = (violations: Violation[]) =>
    showErrors(
      violations.map((v) => ({
        path: toFormPath(v.field),
        message: t(`rule.${v.rule}`, v.params ?? {}),
      })),
    );
  const showServerErrors = (errors: FieldError[]) =>
    showErrors(errors.map((e) => ({ path: toFormPath(e.field), message: e.message })));

  const handleError = (e: unknown) => {
    if (!(e instanceof ApiError)) throw e;
    if (e.status === 409 && e.reason === 'VERSION_CONFLICT') {
      setConflict(true);
      return;
    }
    if (e.fieldErrors.length > 0) {
      showServerErrors(e.fieldErrors);
      const customer = e.fieldErrors.find((f) => f.field === 'customerId');
      if (customer) setCustomerError(customer.message);
      return;
    }
    setFormError(e.message);
  };

  /** Saves (create or edit); resolves with the id, or null when it did not save. */
  const save = async (): Promise<string | null> => {
    setFormError(null);
    setCustomerError(null);
    form.clearErrors();
    setProblems([]);
    const payload = toPayload(form.values);
    const draftViolations = validateDraft(payload);
    if (draftViolations.length > 0) {
      showViolations(draftViolations);
      return null;
    }
    try {
      if (!idRef.current) {
        if (staff && !customerId.trim()) {
          setCustomerError(t('form.customerRequired'));
          setOpen((o) => [...new Set([...o, 'owning'])]);
          return null;
        }
        const answer = await create.mutateAsync({
          declarationType,
          customerId: staff ? customerId.trim() : undefined,
          data: payload,
          idempotencyKey: idempotencyKey.current,
        });
        idRef.current = answer.id;
        versionRef.current = answer.version;
        setVersion(answer.version);
      } else {
        const answer = await update.mutateAsync({
          id: idRef.current,
          version: versionRef.current ?? 0,
          data: payload,
        });
        versionRef.current = answer.version;
        setVersion(answer.version);
      }
      form.resetDirty();
      return idRef.current;
    } catch (e) {
      handleError(e);
      return null;
    }
  };

  const onSaveDraft = async () => {
    const wasNew = !idRef.current;
    const id = await save();
    if (!id) return;
    message.success(t('form.saved'));
    if (wasNew) navigate(declarationFormPath(area, declarationType, id), { replace: true });
  };

  const onSubmit = async () => {
    setFormError(null);
    const payload = toPayload(form.values);
    // With blank lines on screen, "at least one goods line" also marks line 1's cells.
    const violations = markBlankLine(
      validateFull(payload, declarationType, lookup),
      form.values.declarationGoodsInfo.length,
      declarationType,
    );
    if (violations.length > 0) {
      form.clearErrors();
      showViolations(violations);
      return;
    }
    const id = await save();
    if (!id) return;
    try {
      await submitAction.mutateAsync({ id, version: versionRef.current ?? 0 });
      message.success(t('form.submitted'));
      navigate(declarationDetailPath(area, declarationType, id));
    } catch (e) {
      handleError(e);
    }
  };

  if (existing && !mayEdit(role, existing.status)) {
    return (
      <Alert color="orange" icon={<IconAlertTriangle size={20} />}>
        <Stack gap="xs">
          <Text size="sm">
            {t('form.notEditable', { status: tg(`declarationStatus.${existing.status}`) })}
          </Text>
          <Anchor
            component={Link}
            to={declarationDetailPath(area, declarationType, existing.id)}
            size="sm"
          >
            {t('list.view')}
          </Anchor>
        </Stack>
      </Alert>
    );
  }

  const canSubmit = moveTarget(role, 'submit', status) !== null;
  const warnings = currencyWarnings(toPayload(form.values));
  /** "Goods line 1 · Quantity: Must be a number, got 'two'" (server messages carry the label). */
  const labelled = (p: { path: string; message: string }) => {
    const label = changeLabel(toServerPath(p.path));
    return p.message.startsWith(label) ? p.message : `${label}: ${p.message}`;
  };
  const typeLabel = typeName(declarationType);

  return (
    // Room under the content for the sticky save bar.
    <Box pb={80}>
      <PageLayout
        title={
          existing
            ? t('form.editTitle', { type: typeLabel, tracking: existing.trackingNumber ?? '' })
            : t('form.newTitle', { type: typeLabel })
        }
        subtitle={
          <>
            <Group gap="xs">
              {existing && <StatusBadge status={existing.status} />}
              {existing && (
                <Text size="xs" c="dimmed">
                  {t('detail.version')} {version}
                </Text>
              )}
              {form.isDirty() && (
                <Badge color="yellow" variant="light" size="sm">
                  {t('form.unsaved')}
                </Badge>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t('form.requiredLegend', { type: typeLabel })}
            </Text>
          </>
        }
        actions={
          <>
            <Button variant="subtle" size="xs" onClick={() => setOpen(allIds)}>
              {t('form.expandAll')}
            </Button>
            <Button variant="subtle" size="xs" onClick={() => setOpen([])}>
              {t('form.collapseAll')}
            </Button>
          </>
        }
      >
        {conflict && (
          <VersionConflictAlert
            onReload={() => (onReload ? onReload() : window.location.reload())}
          />
        )}
        {formError && (
          <Alert color="red" icon={<IconAlertTriangle size={20} />} role="alert">
            {formError}
          </Alert>
        )}
        {!existing && (
          <Alert
            color="blue"
            variant="light"
            icon={<IconInfoCircle size={20} />}
            data-testid="form-defaults"
          >
            {defaults && defaults.filled.length > 0 && (
              <Text size="sm">
                {t('form.defaults.fromProfile', {
                  who: defaults.from,
                  fields: defaults.filled
                    .map((f) => `${t(`field.${f.field}`)} ${f.value}`)
                    .join(' · '),
                })}
              </Text>
            )}
            <Text size="sm">{t('form.defaults.currency', { currency: 'CNY' })}</Text>
          </Alert>
        )}

        <FormSections
          form={form}
          declarationType={declarationType}
          problems={problems}
          open={open}
          onOpenChange={setOpen}
          customerId={staff ? customerId : undefined}
          leading={
            staff &&
            !existing && (
              <Accordion.Item value="owning">
                <Accordion.Control>
                  <Text fw={600}>{t('group.owning')}</Text>
                </Accordion.Control>
                <Accordion.Panel>
                  <CustomerPicker
                    label={t('form.customer')}
                    placeholder={t('form.customerPlaceholder')}
                    value={customerId}
                    onChange={(v) => {
                      setCustomerId(v);
                      setCustomerError(null);
                    }}
                    selected={preselected.data}
                    withAsterisk
                    error={
                      customerError ??
                      (preselected.isError && customerId === search.get('customerId')
                        ? tg('customers.picker.notFound')
                        : null)
                    }
                    maw={480}
                  />
                </Accordion.Panel>
              </Accordion.Item>
            )
          }
        />

        {warnings.length > 0 && (
          <Alert
            color="yellow"
            icon={<IconAlertTriangle size={20} />}
            title={t('warning.title')}
            data-testid="form-warnings"
          >
            <Stack gap={2}>
              {warnings.map((w) => (
                <Text size="sm" key={w.field}>
                  {labelled({
                    path: toFormPath(w.field),
                    message: t(`warning.${w.rule}`, w.params),
                  })}
                </Text>
              ))}
            </Stack>
          </Alert>
        )}

        <Paper withBorder shadow="sm" p="sm" style={{ position: 'sticky', bottom: 0, zIndex: 5 }}>
          <Group justify="space-between">
            <Group gap="xs">
              {problems.length > 0 && (
                <Text c="red" size="sm" role="alert">
                  <IconAlertTriangle size={14} style={{ verticalAlign: 'middle' }} />{' '}
                  {t('form.fixErrors', { count: problems.length })}
                  {': '}
                  {problems
                    .slice(0, 3)
                    .map(labelled)
                    .join(i18n.language?.startsWith('en') ? '; ' : '；')}
                  {problems.length > 3 ? '…' : ''}
                </Text>
              )}
            </Group>
            <Group gap="xs">
              <Button variant="default" onClick={() => navigate(-1)} disabled={busy}>
                {t('common.back')}
              </Button>
              <Button
                variant="light"
                leftSection={<IconDeviceFloppy size={16} />}
                onClick={() => void onSaveDraft()}
                loading={create.isPending || update.isPending}
                disabled={busy}
              >
                {t('form.saveDraft')}
              </Button>
              {canSubmit && (
                <Button
                  leftSection={<IconSend size={16} />}
                  onClick={() => void onSubmit()}
                  loading={submitAction.isPending}
                  disabled={busy}
                >
                  {t('form.submit')}
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      </PageLayout>
    </Box>
  );
}
