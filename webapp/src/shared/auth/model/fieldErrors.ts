// Splits a 400 answer's field errors between the form's own fields and the rest (a token
// field that is no longer valid, an unknown field): the form shows the first kind under
// each input, the page shows the others above the form.
import { ApiError } from '@/lib/request';

export interface SplitErrors {
  fields: Record<string, string>;
  other: string | null;
}

export function splitFieldErrors(error: unknown, formFields: readonly string[]): SplitErrors {
  const fields: Record<string, string> = {};
  const others: string[] = [];
  if (!(error instanceof ApiError)) return { fields, other: null };
  for (const e of error.fieldErrors) {
    if (formFields.includes(e.field) && !fields[e.field]) fields[e.field] = e.message;
    else others.push(e.message);
  }
  const other =
    others.length > 0
      ? others.join('; ')
      : Object.keys(fields).length === 0 && error.message
        ? error.message
        : null;
  return { fields, other };
}
