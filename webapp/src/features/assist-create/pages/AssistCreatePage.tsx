// `/customers-profile/assist-to-create` (staff) and `/customs-clearance-supply/assist-to-create`
// (customers): a guided creation in five steps: customer, type, where to start (blank,
// template, copy), the form with live server checks, and review (save as draft or submit,
// then open the new declaration).
import { useRef, useState } from 'react';
import { Alert, Box, Button, Group, Stepper, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { PageLayout } from '@/components/PageLayout';
import {
  declarationDetailPath,
  declarationFormPath,
  type DeclarationType,
} from '@/lib/declarations';
import { message } from '@/lib/message';
import { ApiError } from '@/lib/request';
import { isStaff } from '@/lib/roles';
import { useSessionStore } from '@/lib/session';
import { useCreateDeclaration } from '@/shared/declarations/api/createDeclaration';
import { declarationQueryOptions } from '@/shared/declarations/api/getDeclaration';
import { useSubmitDeclaration } from '@/shared/declarations/api/submitDeclaration';
import { moveTarget } from '@/shared/declarations/model/actions';
import {
  newIdempotencyKey,
  toPayload,
  type DeclarationFormValues,
} from '@/shared/declarations/model/formValues';
import type { DeclarationSummary } from '@/shared/declarations/model/types';
import { toFormPath } from '@/shared/declarations/model/validation';
import { useAssistT } from '@/features/assist-create/i18n';
import { useLiveValidation } from '@/shared/declarations/api/validateDeclaration';
import {
  blankForm,
  copyForm,
  templateForm,
  type StartKind,
} from '@/features/assist-create/model/start';
import { blockerOf, STEPS } from '@/features/assist-create/model/steps';
import { CustomerStep, TypeStep } from '@/features/assist-create/components/ChoiceSteps';
import { FormStep } from '@/features/assist-create/components/FormStep';
import { ReviewStep } from '@/features/assist-create/components/ReviewStep';
import { StartStep } from '@/features/assist-create/components/StartStep';
import { useCustomerDeclarations } from '@/features/assist-create/api/customerDeclarations';

export default function AssistCreatePage() {
  const { t } = useAssistT();
  const navigate = useNavigate();
  const client = useQueryClient();
  const role = useSessionStore((s) => s.role);
  const company = useSessionStore((s) => s.userinfo?.department ?? '');
  const staff = isStaff(role);
  const area = staff ? 'staff' : 'customer';

  const [active, setActive] = useState(0);
  const [customerId, setCustomerId] = useState('');
  const [customerLabel, setCustomerLabel] = useState('');
  const [type, setType] = useState<DeclarationType | null>(null);
  const [start, setStart] = useState<StartKind>('blank');
  const [copyFrom, setCopyFrom] = useState<DeclarationSummary | null>(null);
  const [blocker, setBlocker] = useState<string | null>(null);
  const [preparing, setPreparing] = useState(false);
  const [busy, setBusy] = useState<'draft' | 'submit' | null>(null);
  const idempotencyKey = useRef(newIdempotencyKey());
  const create = useCreateDeclaration();
  const submit = useSubmitDeclaration();
  const form = useForm<DeclarationFormValues>({ initialValues: blankForm() });
  const owner = staff ? customerId : undefined;
  const latest = useCustomerDeclarations(type, owner);

  const inForm = active >= 3 && type !== null;
  const check = useLiveValidation(
    inForm ? { declarationType: type, customerId: owner, data: toPayload(form.values) } : null,
  );
  const checkError = check.error instanceof Error ? check.error.message : null;

  /** The form values the chosen start gives. */
  const startValues = async (): Promise<DeclarationFormValues> => {
    if (start === 'copy' && copyFrom)
      return copyForm(await client.fetchQuery(declarationQueryOptions(copyFrom.id)));
    if (start === 'template') {
      const last = latest.data?.records[0];
      const full = last ? await client.fetchQuery(declarationQueryOptions(last.id)) : null;
      return templateForm(type!, full);
    }
    return blankForm();
  };

  const next = async () => {
    const why = blockerOf(active, {
      staff,
      customerId,
      type,
      start,
      copyFrom: copyFrom?.id ?? null,
    });
    setBlocker(why);
    if (why) return;
    if (STEPS[active] === 'start') {
      setPreparing(true);
      try {
        const values = await startValues();
        form.setValues(values);
        form.resetDirty(values);
        form.clearErrors();
        idempotencyKey.current = newIdempotencyKey();
      } catch (e) {
        setBlocker(null);
        message.error(e instanceof Error ? e.message : String(e));
        return;
      } finally {
        setPreparing(false);
      }
    }
    setActive((a) => Math.min(a + 1, STEPS.length - 1));
  };

  /** Server refusal of the create or submit: the fields back on the form. */
  const refused = (e: unknown) => {
    if (!(e instanceof ApiError)) throw e;
    if (e.fieldErrors.length > 0) {
      setActive(3);
      form.setErrors(
        Object.fromEntries(e.fieldErrors.map((f) => [toFormPath(f.field), f.message])),
      );
    }
    message.error(e.message);
  };

  const save = async (then: 'draft' | 'submit') => {
    if (!type) return;
    setBusy(then);
    let created: { id: string; version: number } | null = null;
    try {
      created = await create.mutateAsync({
        declarationType: type,
        customerId: owner,
        data: toPayload(form.values),
        idempotencyKey: idempotencyKey.current,
      });
      if (then === 'draft') {
        message.success(t('review.saved'));
        navigate(declarationDetailPath(area, type, created.id));
        return;
      }
      await submit.mutateAsync({ id: created.id, version: created.version });
      message.success(t('review.submitted'));
      navigate(declarationDetailPath(area, type, created.id));
    } catch (e) {
      if (created && e instanceof ApiError) {
        // Saved, not submitted: continue on the draft's own form with the refusal shown.
        message.error(t('review.savedNotSubmitted', { message: e.message }));
        navigate(declarationFormPath(area, type, created.id), {
          state: { fieldErrors: e.fieldErrors },
        });
      } else refused(e);
    } finally {
      setBusy(null);
    }
  };
  const stepLabel = (s: (typeof STEPS)[number]) => ({
    label: t(`steps.${s}`),
    description: t(`steps.${s}Hint`),
  });

  return (
    <PageLayout
      title={t('title')}
      subtitle={
        <Text size="sm" c="dimmed">
          {t('intro')}
        </Text>
      }
    >
      <Box pb={40}>
        <Stepper
          active={active}
          onStepClick={(i) => i < active && setActive(i)}
          allowNextStepsSelect={false}
          size="sm"
        >
          <Stepper.Step {...stepLabel('customer')}>
            <CustomerStep
              staff={staff}
              customerId={customerId}
              onChange={(id, label) => {
                setCustomerId(id);
                setCustomerLabel(label);
                setCopyFrom(null);
                setBlocker(null);
              }}
              error={blocker === 'customer.required' ? t('customer.required') : null}
            />
          </Stepper.Step>
          <Stepper.Step {...stepLabel('type')}>
            <TypeStep
              value={type}
              onChange={(v) => {
                setType(v);
                setCopyFrom(null);
                setBlocker(null);
              }}
            />
          </Stepper.Step>
          <Stepper.Step {...stepLabel('start')}>
            {type && (
              <StartStep
                type={type}
                customerId={owner}
                start={start}
                onStart={(k) => {
                  setStart(k);
                  setBlocker(null);
                }}
                copyFrom={copyFrom}
                onCopyFrom={(d) => {
                  setCopyFrom(d);
                  setBlocker(null);
                }}
              />
            )}
          </Stepper.Step>
          <Stepper.Step {...stepLabel('form')}>
            {inForm && (
              <FormStep
                form={form}
                type={type}
                customerId={owner}
                check={check.data}
                checking={check.isFetching}
                checkError={checkError}
                onSwitchType={setType}
              />
            )}
          </Stepper.Step>
          <Stepper.Step {...stepLabel('review')}>
            {type && (
              <ReviewStep
                customer={staff ? customerLabel || customerId : company}
                type={type}
                data={toPayload(form.values)}
                check={check.data}
                busy={busy}
                canSubmit={moveTarget(role, 'submit', 0) !== null}
                onSaveDraft={() => void save('draft')}
                onSubmit={() => void save('submit')}
              />
            )}
          </Stepper.Step>
        </Stepper>

        {blocker && blocker !== 'customer.required' && (
          <Alert color="orange" mt="md" role="alert">
            {t(blocker)}
          </Alert>
        )}
        <Group justify="space-between" mt="lg">
          <Button
            variant="default"
            onClick={() => setActive((a) => Math.max(a - 1, 0))}
            disabled={active === 0 || busy !== null}
          >
            {t('back')}
          </Button>
          {active < STEPS.length - 1 && (
            <Button onClick={() => void next()} loading={preparing}>
              {t('next')}
            </Button>
          )}
        </Group>
      </Box>
    </PageLayout>
  );
}
