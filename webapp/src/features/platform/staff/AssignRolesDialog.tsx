// "Assign roles": checkboxes of the staff roles; only those the user may grant
// (user-roles:grant:X) can change (POST /api/v1/staff/{id}/roles, If-Match).
import { useState } from 'react';
import { Button, Checkbox, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { useAssignStaffRoles } from '../api/assignStaffRoles';
import type { StaffRecord } from '@/shared/platform/api/types';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText, fieldErrorsOf } from '@/shared/platform/model/errors';
import { roleChoices, roleCodesOf } from '../model/permissions';

export function AssignRolesDialog({ row, onClose }: { row: StaffRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const held = useSessionStore((s) => s.permissions);
  const assign = useAssignStaffRoles();
  const choices = roleChoices(roleCodesOf(row.roleList), held);
  const [roles, setRoles] = useState<string[]>(() =>
    choices.filter((c) => c.checked).map((c) => c.role),
  );
  const [error, setError] = useState<string | null>(null);

  const submit = async () => {
    if (roles.length === 0) {
      setError(t('platform.staff.assign.atLeastOne'));
      return;
    }
    setError(null);
    try {
      await assign.mutateAsync({ id: row.id, version: row.version, roles });
      showMessage('success', t('platform.staff.done.roles'));
      onClose();
    } catch (e) {
      setError(fieldErrorsOf(e, ['roles']).roles ?? errorText(e));
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('platform.staff.assign.title')}
      closeOnClickOutside={false}
    >
      <Stack>
        <Text size="sm" c="dimmed">
          {row.staffName} ({row.username}) · {t('platform.staff.assign.hint')}
        </Text>
        <Checkbox.Group value={roles} onChange={setRoles}>
          <Stack gap="xs">
            {choices.map((c) => (
              <Checkbox
                key={c.role}
                value={c.role}
                disabled={c.disabled}
                label={`${t(`platform.roleName.${c.role}`)} (${c.role})`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <FormError message={error} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('platform.common.cancel')}
          </Button>
          <Button loading={assign.isPending} onClick={() => void submit()}>
            {t('platform.common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
