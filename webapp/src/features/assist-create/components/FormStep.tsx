// Step 4: the declaration form (the same panels as the create/edit form, with the product
// library picker on goods lines) beside the live check. The server's problems are shown
// under their fields as they arrive; a click on one opens its panel and focuses it.
import { useEffect, useMemo, useState } from 'react';
import { Grid } from '@mantine/core';
import type { DeclarationType } from '@/lib/declarations';
import { useReference } from '@/shared/declarations/api/getReference';
import type { DeclarationFormApi } from '@/shared/declarations/components/FormInput';
import { FormSections } from '@/shared/declarations/components/FormSections';
import { groupOfPath, primaryGroupIds } from '@/shared/declarations/model/fields';
import { toPayload } from '@/shared/declarations/model/formValues';
import { classOf, type GoodsLine } from '@/shared/declarations/model/types';
import { toFormPath } from '@/shared/declarations/model/validation';
import { message } from '@/lib/message';
import { useAssistT } from '../i18n';
import type { FormCheck } from '@/shared/declarations/api/validateDeclaration';
import { legalQuantities, round4, unitTable, wizardTotals, type UnitRow } from '../model/units';
import { CheckPanel } from './CheckPanel';

export function FormStep({
  form,
  type,
  customerId,
  check,
  checking,
  checkError,
  onSwitchType,
}: {
  form: DeclarationFormApi;
  type: DeclarationType;
  customerId?: string;
  check: FormCheck | undefined;
  checking: boolean;
  checkError: string | null;
  onSwitchType: (type: DeclarationType) => void;
}) {
  const { t } = useAssistT();
  const [open, setOpen] = useState<string[]>(() => [...primaryGroupIds(classOf(type)), 'goods']);
  const units = useReference('units');
  const table = useMemo(() => unitTable(units.data as UnitRow[] | undefined), [units.data]);
  const problems = useMemo(
    () => (check?.problems ?? []).map((p) => ({ path: toFormPath(p.field), message: p.message })),
    [check],
  );

  // The server's messages under the fields: set when an answer arrives; typing in a field
  // clears its own message until the next answer.
  const { setErrors } = form;
  useEffect(() => {
    const errors: Record<string, string> = {};
    for (const p of problems) if (!errors[p.path]) errors[p.path] = p.message;
    setErrors(errors);
  }, [problems, setErrors]);

  const payload = toPayload(form.values);
  const totals = wizardTotals(table, payload.declarationGoodsInfo ?? [], payload);

  const focusProblem = (field: string) => {
    const path = toFormPath(field);
    setOpen((o) => [...new Set([...o, groupOfPath(path)])]);
    window.setTimeout(() => {
      const el = form.getInputNode<HTMLElement, string>(path);
      el?.scrollIntoView({ block: 'center', behavior: 'smooth' });
      el?.focus({ preventScroll: true });
    }, 300);
  };

  const fillLegal = () => {
    let filled = 0;
    form.values.declarationGoodsInfo.forEach((line, i) => {
      const q = legalQuantities(table, line as unknown as GoodsLine);
      if (q.quantityOne !== undefined) {
        form.setFieldValue(`declarationGoodsInfo.${i}.quantityOne`, q.quantityOne);
        filled += 1;
      }
      if (q.quantityTwo !== undefined)
        form.setFieldValue(`declarationGoodsInfo.${i}.quantityTwo`, q.quantityTwo);
    });
    if (filled > 0) message.success(t('form.legalDone', { count: filled }));
    else message.warning(t('form.legalNone'));
  };

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <FormSections
          form={form}
          declarationType={type}
          problems={problems}
          open={open}
          onOpenChange={setOpen}
          customerId={customerId}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, lg: 4 }}>
        <div style={{ position: 'sticky', top: 8 }}>
          <CheckPanel
            type={type}
            check={check}
            checking={checking}
            error={checkError}
            totals={totals}
            onProblem={focusProblem}
            onSwitchType={onSwitchType}
            onLegalQuantities={fillLegal}
            onUseAsNet={(kg) => form.setFieldValue('netWeight', round4(kg))}
          />
        </div>
      </Grid.Col>
    </Grid>
  );
}
