// The form's port and SLIC: chosen from the courier's ports and their facility SLICs
// (GET /api/v1/port/slic-info), the SLICs of the chosen port first; free text when the list
// cannot be read, and a stored value missing from the list stays shown.
import { Select, TextInput, type SelectProps } from '@mantine/core';
import { usePortSlicInfo } from '@/shared/platform/api/getPortSlicInfo';
import { portOptions, slicOptions } from '@/shared/platform/model/exportLists';

type Common = Pick<
  SelectProps,
  'label' | 'aria-label' | 'withAsterisk' | 'error' | 'size' | 'disabled' | 'onBlur' | 'onFocus'
>;

export function FacilitySelect({
  which,
  port,
  value,
  onChange,
  ...common
}: Common & {
  which: 'port' | 'slic';
  /** The form's port: the SLICs offered are that port's. */
  port: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const ports = usePortSlicInfo();
  if (!ports.data) {
    return (
      <TextInput {...common} value={value} onChange={(e) => onChange(e.currentTarget.value)} />
    );
  }
  const options =
    which === 'port' ? portOptions(ports.data) : slicOptions(ports.data, port.trim() || null);
  const data =
    value && !options.some((o) => o.value === value)
      ? [{ value, label: value }, ...options]
      : options;
  return (
    <Select
      {...common}
      data={data}
      value={value || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable
      nothingFoundMessage="—"
    />
  );
}
