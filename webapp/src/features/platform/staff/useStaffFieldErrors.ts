// Turns the form's own checks and the server's field errors into per-field messages.
import { useTranslation } from 'react-i18next';
import type { StaffField } from '../model/staffForm';

export function useStaffProblemText() {
  const { t } = useTranslation();
  return (field: StaffField, problem: 'required' | 'invalidEmail') =>
    problem === 'required'
      ? t('platform.staff.form.required', { field: t(`platform.staff.form.${field}`) })
      : t('platform.staff.form.invalidEmail');
}
