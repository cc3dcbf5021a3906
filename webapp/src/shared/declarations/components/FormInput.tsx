// One input of the declaration form, chosen by the field's kind, bound to a form path.
import { Select, TextInput, Textarea } from '@mantine/core';
import { DatePickerInput, DateTimePicker } from '@mantine/dates';
import type { UseFormReturnType } from '@mantine/form';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useDeclT } from '@/shared/declarations/i18n';
import type { FieldKind, RefTable } from '@/shared/declarations/model/fields';
import type { DeclarationFormValues } from '@/shared/declarations/model/formValues';
import { isoToYmd } from '@/lib/dates';
import { ReferenceSelect } from './ReferenceSelect';
import { FacilitySelect } from './FacilitySelect';

export type DeclarationFormApi = UseFormReturnType<DeclarationFormValues>;

export interface FormInputProps {
  form: DeclarationFormApi;
  path: string;
  kind: FieldKind;
  table?: RefTable;
  label?: ReactNode;
  /** For inputs without a visible label (goods table cells). */
  ariaLabel?: string;
  required?: boolean;
  size?: 'xs' | 'sm';
  disabled?: boolean;
}

/** A stored date (YYYYMMDD, YYYY-MM-DD or ISO) as the picker's YYYY-MM-DD, or null. */
function pickerDate(v: unknown): string | null {
  if (typeof v !== 'string' || !v.trim()) return null;
  const s = v.trim();
  const d = /^\d{8}$/.test(s) ? dayjs(`${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6)}`) : dayjs(s);
  return d.isValid() ? d.format('YYYY-MM-DD') : null;
}

function pickerDateTime(v: unknown): string | null {
  if (typeof v !== 'string' || !v.trim()) return null;
  const d = dayjs(v);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm:ss') : null;
}

export function FormInput({
  form,
  path,
  kind,
  table,
  label,
  ariaLabel,
  required,
  size = 'sm',
  disabled,
}: FormInputProps) {
  const { t } = useDeclT();
  const props = form.getInputProps(path);
  const common = {
    label,
    'aria-label': ariaLabel,
    withAsterisk: required,
    error: props.error as ReactNode,
    size,
    disabled,
    onBlur: props.onBlur as (() => void) | undefined,
    onFocus: props.onFocus as (() => void) | undefined,
  };
  const value = props.value as string | number;
  const set = (v: unknown) => form.setFieldValue(path, v as never);

  switch (kind) {
    case 'textarea':
      return (
        <Textarea
          {...common}
          autosize
          minRows={2}
          value={String(value ?? '')}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
    case 'number':
      // A text input: what is typed stays visible, and what is not a number is refused
      // by the form's rules (`number`) instead of vanishing.
      return (
        <TextInput
          {...common}
          inputMode="decimal"
          value={String(value ?? '')}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
    case 'date':
      return (
        <DatePickerInput
          {...common}
          clearable
          valueFormat="YYYYMMDD"
          placeholder="YYYYMMDD"
          value={pickerDate(value)}
          onChange={(v) => set(isoToYmd(v))}
        />
      );
    case 'datetime':
      return (
        <DateTimePicker
          {...common}
          clearable
          valueFormat="YYYY-MM-DD HH:mm"
          value={pickerDateTime(value)}
          onChange={(v) => set(v ? dayjs(v).format() : '')}
        />
      );
    case 'port':
    case 'slic':
      return (
        <FacilitySelect
          {...common}
          which={kind}
          port={String(form.values.port ?? '')}
          value={String(value ?? '')}
          onChange={set}
        />
      );
    case 'ref':
    case 'refFree':
      return (
        <ReferenceSelect
          {...common}
          table={table!}
          free={kind === 'refFree'}
          value={String(value ?? '')}
          onChange={set}
        />
      );
    case 'marker':
      return (
        <Select
          {...common}
          clearable
          value={value === '' ? null : String(value)}
          onChange={(v) => set(v ?? '')}
          data={['0', '1'].map((v) => ({ value: v, label: `${v} ${t(`marker.${v}`)}` }))}
        />
      );
    case 'feeType':
      return (
        <Select
          {...common}
          clearable
          value={value === '' ? null : String(value)}
          onChange={(v) => set(v ?? '')}
          data={['1', '2', '3'].map((v) => ({ value: v, label: t(`feeType.${v}`) }))}
        />
      );
    default:
      return (
        <TextInput
          {...common}
          value={String(value ?? '')}
          onChange={(e) => set(e.currentTarget.value)}
        />
      );
  }
}
