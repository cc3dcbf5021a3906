// Server errors for forms: the field errors of a 400, keyed by the form's field names.
import { ApiError } from '@/lib/request';

/**
 * Field errors of an ApiError as `{field: message}`; a path like `roles[0]` counts for
 * `roles`. Unknown fields are left out (the caller shows `error.message` for them).
 */
export function fieldErrorsOf(error: unknown, fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!(error instanceof ApiError)) return out;
  for (const e of error.fieldErrors) {
    const base = e.field.replace(/\[\d+\]$/, '').replace(/\.\w+$/, '');
    const key = fields.includes(e.field) ? e.field : fields.includes(base) ? base : null;
    if (key && !out[key]) out[key] = e.message;
  }
  return out;
}

/** The message to show for an error (server text, else the error's own). */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

export const isConflict = (error: unknown): boolean =>
  error instanceof ApiError && error.status === 409;

/**
 * The field a uniqueness conflict (409 CONFLICT, no field list) is about, judged from the
 * message's words for each field (zh and en): the server says "another staff member has
 * this e-mail address" without naming the field.
 */
export function conflictField(
  error: unknown,
  words: Readonly<Record<string, readonly string[]>>,
): string | null {
  if (!(error instanceof ApiError) || error.status !== 409 || error.reason === 'VERSION_CONFLICT')
    return null;
  const text = error.message.toLowerCase();
  for (const [field, list] of Object.entries(words))
    if (list.some((w) => text.includes(w.toLowerCase()))) return field;
  return null;
}

/** Words naming the staff fields in the server's conflict messages. */
export const STAFF_CONFLICT_WORDS = {
  staffEmail: ['e-mail', 'email', '邮箱', '邮件'],
  username: ['username', '用户名'],
  staffId: ['staff id', 'staffid', '员工编号', '工号'],
} as const;

/** Field errors of a staff form: the 400's list, or the field a 409 conflict names. */
export function staffFieldErrors(
  error: unknown,
  fields: readonly string[],
): Record<string, string> {
  const out = fieldErrorsOf(error, fields);
  const field = conflictField(error, STAFF_CONFLICT_WORDS);
  if (field && fields.includes(field) && !out[field]) out[field] = errorText(error);
  return out;
}
