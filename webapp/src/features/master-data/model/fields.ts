// The fields of the trade company and product forms, and the conversions between a record,
// the form's text values and a command body.

export interface FieldSpec {
  name: string;
  required?: boolean;
  maxLength?: number;
  placeholder?: string;
}

export const TRADE_FIELDS: readonly FieldSpec[] = [
  { name: 'companyNameCn', required: true, maxLength: 100 },
  { name: 'companyNameEn', maxLength: 200 },
  { name: 'uscc', required: true, maxLength: 18 },
  { name: 'customsCode', maxLength: 10 },
  { name: 'inspectionCode', maxLength: 10 },
  { name: 'address', maxLength: 200 },
];

export const PRODUCT_FIELDS: readonly FieldSpec[] = [
  { name: 'descriptionCn', required: true, maxLength: 100 },
  { name: 'descriptionEn', maxLength: 100 },
  { name: 'hsCode', required: true, maxLength: 10, placeholder: '8517130000' },
  { name: 'declarationElements', maxLength: 255 },
  { name: 'declaredUnit', required: true, maxLength: 3, placeholder: '011' },
  { name: 'legalUnitOne', maxLength: 3 },
  { name: 'legalUnitTwo', maxLength: 3 },
  { name: 'originCountry', maxLength: 3, placeholder: 'CHN' },
  { name: 'unitPrice', maxLength: 20 },
  { name: 'currency', maxLength: 3, placeholder: 'USD' },
];

/** A record's optional text fields as the form holds them ('' for none). */
export function formValues(
  record: object | null,
  fields: readonly FieldSpec[],
): Record<string, string> {
  const r = (record ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    fields.map((f) => [f.name, r[f.name] == null ? '' : String(r[f.name])]),
  );
}

/** Form values as a body: trimmed, empty optional fields null. */
export function bodyOf(values: Record<string, string>): Record<string, string | null> {
  return Object.fromEntries(
    Object.entries(values).map(([k, v]) => [k, v.trim() === '' ? null : v.trim()]),
  );
}
