// "Maintain": name, e-mail and staff id of one employee (PUT /api/v1/staff/{id}, If-Match).
import { useState, type ChangeEvent } from 'react';
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showMessage } from '@/lib/message';
import { useUpdateStaff } from '../api/updateStaff';
import type { StaffRecord } from '@/shared/platform/api/types';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText, staffFieldErrors } from '@/shared/platform/model/errors';
import { checkStaffDraft, type StaffField } from '../model/staffForm';
import { useStaffProblemText } from './useStaffFieldErrors';

const FIELDS: readonly StaffField[] = ['staffId', 'staffName', 'staffEmail'];

export function StaffEditDialog({ row, onClose }: { row: StaffRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const update = useUpdateStaff();
  const problemText = useStaffProblemText();
  const [draft, setDraft] = useState({
    staffId: row.staffId ?? '',
    staffName: row.staffName ?? '',
    staffEmail: row.staffEmail ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async () => {
    setFormError(null);
    const problems = checkStaffDraft({ ...draft, roles: [], username: '' }, false);
    const local: Record<string, string> = {};
    for (const [f, p] of Object.entries(problems)) local[f] = problemText(f as StaffField, p);
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      await update.mutateAsync({
        id: row.id,
        version: row.version,
        body: {
          staffId: draft.staffId.trim(),
          staffName: draft.staffName.trim(),
          staffEmail: draft.staffEmail.trim(),
        },
      });
      showMessage('success', t('platform.staff.done.updated'));
      onClose();
    } catch (e) {
      const fields = staffFieldErrors(e, FIELDS);
      setErrors(fields);
      if (!Object.keys(fields).length) setFormError(errorText(e));
    }
  };

  const field = (name: 'staffId' | 'staffName' | 'staffEmail') => ({
    label: t(`platform.staff.form.${name}`),
    value: draft[name],
    error: errors[name],
    required: true,
    onChange: (e: ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setDraft((d) => ({ ...d, [name]: value }));
    },
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('platform.staff.edit.title')}
      closeOnClickOutside={false}
    >
      <Stack>
        <TextInput {...field('staffId')} maxLength={50} />
        <TextInput {...field('staffName')} maxLength={100} />
        <TextInput {...field('staffEmail')} maxLength={254} type="email" />
        <FormError message={formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('platform.common.cancel')}
          </Button>
          <Button loading={update.isPending} onClick={() => void submit()}>
            {t('platform.common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
