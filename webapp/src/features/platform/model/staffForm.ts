// The staff forms' client-side checks (the server repeats them and names the field).
export interface StaffDraft {
  staffId: string;
  staffName: string;
  staffEmail: string;
  roles: string[];
  username: string;
}

export const STAFF_FIELDS = ['staffId', 'staffName', 'staffEmail', 'roles', 'username'] as const;
export type StaffField = (typeof STAFF_FIELDS)[number];

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Problems by field as i18n keys: required fields (roles only when `withRoles`) and the
 * e-mail's shape.
 */
export function checkStaffDraft(
  draft: StaffDraft,
  withRoles: boolean,
): Partial<Record<StaffField, 'required' | 'invalidEmail'>> {
  const out: Partial<Record<StaffField, 'required' | 'invalidEmail'>> = {};
  if (!draft.staffId.trim()) out.staffId = 'required';
  if (!draft.staffName.trim()) out.staffName = 'required';
  if (!draft.staffEmail.trim()) out.staffEmail = 'required';
  else if (!EMAIL.test(draft.staffEmail.trim())) out.staffEmail = 'invalidEmail';
  if (withRoles && draft.roles.length === 0) out.roles = 'required';
  return out;
}

/** The POST /api/v1/staff body: trimmed, the username only when given. */
export function newStaffBody(draft: StaffDraft) {
  const username = draft.username.trim();
  return {
    staffId: draft.staffId.trim(),
    staffName: draft.staffName.trim(),
    staffEmail: draft.staffEmail.trim(),
    roles: draft.roles,
    ...(username ? { username } : {}),
  };
}
