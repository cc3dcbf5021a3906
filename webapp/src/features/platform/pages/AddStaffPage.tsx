// /platform-mgt/add: a new employee (POST /api/v1/staff). Roles are limited to those the
// user may grant; server field errors land on their fields; after creation the list opens
// filtered on the new employee's e-mail so the new row is in view.
import { useState, type ChangeEvent } from 'react';
import { Button, Checkbox, Group, Paper, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { useCreateStaff } from '@/features/platform/api/createStaff';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText, staffFieldErrors } from '@/shared/platform/model/errors';
import { roleChoices } from '@/features/platform/model/permissions';
import {
  STAFF_FIELDS,
  checkStaffDraft,
  newStaffBody,
  type StaffDraft,
  type StaffField,
} from '@/features/platform/model/staffForm';
import { useStaffProblemText } from '@/features/platform/staff/useStaffFieldErrors';
import { PageLayout } from '@/components/PageLayout';

const EMPTY: StaffDraft = { staffId: '', staffName: '', staffEmail: '', roles: [], username: '' };
const LIST = '/platform-mgt/employee';

export default function AddStaffPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const held = useSessionStore((s) => s.permissions);
  const create = useCreateStaff();
  const problemText = useStaffProblemText();
  const [draft, setDraft] = useState<StaffDraft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const choices = roleChoices([], held);

  const submit = async () => {
    setFormError(null);
    const local: Record<string, string> = {};
    for (const [f, p] of Object.entries(checkStaffDraft(draft, true)))
      local[f] = problemText(f as StaffField, p);
    setErrors(local);
    if (Object.keys(local).length) return;
    const body = newStaffBody(draft);
    try {
      await create.mutateAsync(body);
      showMessage('success', t('platform.staff.done.created'));
      setDraft(EMPTY);
      navigate(`${LIST}?keyword=${encodeURIComponent(body.staffEmail)}`);
    } catch (e) {
      const fields = staffFieldErrors(e, STAFF_FIELDS);
      setErrors(fields);
      if (!Object.keys(fields).length) setFormError(errorText(e));
    }
  };

  const text = (name: Exclude<StaffField, 'roles'>) => ({
    label: t(`platform.staff.form.${name}`),
    value: draft[name],
    error: errors[name],
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setDraft((d) => ({ ...d, [name]: value }));
    },
  });

  return (
    <PageLayout title={t('platform.staff.form.addTitle')} maw={560}>
      <Paper withBorder p="md">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack>
            <TextInput {...text('staffId')} required maxLength={50} />
            <TextInput {...text('staffName')} required maxLength={100} />
            <TextInput {...text('staffEmail')} required maxLength={254} type="email" />
            <Checkbox.Group
              label={t('platform.staff.form.roles')}
              withAsterisk
              value={draft.roles}
              onChange={(roles) => setDraft((d) => ({ ...d, roles }))}
              error={errors.roles}
            >
              <Group mt="xs">
                {choices.map((c) => (
                  <Checkbox
                    key={c.role}
                    value={c.role}
                    disabled={c.disabled}
                    label={`${t(`platform.roleName.${c.role}`)} (${c.role})`}
                  />
                ))}
              </Group>
            </Checkbox.Group>
            <TextInput
              {...text('username')}
              description={t('platform.staff.form.usernameHint')}
              maxLength={100}
              autoComplete="off"
            />
            <FormError message={formError} />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => navigate(LIST)}>
                {t('platform.common.back')}
              </Button>
              <Button type="submit" loading={create.isPending}>
                {t('platform.staff.form.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </PageLayout>
  );
}
