import { useTranslation } from 'react-i18next';
import { useDeclT } from '@/shared/declarations/i18n';
import type { FieldKind } from '@/shared/declarations/model/fields';
import { formatDate, formatDateTime } from '@/lib/dates';
import { formatNumber } from '@/shared/declarations/model/format';

/** A field's value as text: reference codes with their names, markers, dates, numbers. */
export function useFieldText() {
  const { t } = useDeclT();
  const { i18n } = useTranslation();
  return (kind: FieldKind, value: unknown, refLabel?: (code: string) => string): string => {
    if (value === null || value === undefined || value === '') return '';
    switch (kind) {
      case 'number':
        return typeof value === 'number' ? formatNumber(value, i18n.language) : String(value);
      case 'date':
        return formatDate(String(value));
      case 'datetime':
        return formatDateTime(String(value));
      case 'marker':
        return t(`marker.${value}`, { defaultValue: String(value) });
      case 'feeType':
        return t(`feeType.${value}`, { defaultValue: String(value) });
      case 'ref':
      case 'refFree':
        return refLabel ? refLabel(String(value)) : String(value);
      default:
        return String(value);
    }
  };
}
