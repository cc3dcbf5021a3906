// /platform-mgt/roles: every role (by sortNo) with its permission codes as grouped
// checkboxes (route tags, buttons, role grants), saved per role. SUPER_ADMIN is read-only
// (it keeps every code), CUSTOMER holds none; codes the user does not hold cannot be added
// (no escalation). The server's 400/403 messages are shown on the role's card.
import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useUserPermissions } from '@/shared/auth/api/userPermissions';
import { showMessage } from '@/lib/message';
import { useSessionStore } from '@/lib/session';
import { useRoles } from '@/features/platform/api/getRoles';
import { useUpdateRolePermissions } from '@/features/platform/api/updateRolePermissions';
import type { RoleRecord } from '@/shared/platform/api/types';
import { FormError } from '@/shared/platform/components/FormError';
import { errorText } from '@/shared/platform/model/errors';
import {
  descriptionsOf,
  groupPermissions,
  permKey,
  sameCodes,
  sortRoles,
  type PermissionGroup,
} from '@/features/platform/model/permissions';
import { PageLayout } from '@/components/PageLayout';

const GROUP_TITLES: Record<PermissionGroup, string> = {
  route: 'platform.roles.routeGroup',
  button: 'platform.roles.buttonGroup',
  grant: 'platform.roles.grantGroup',
};

export default function RolesPage() {
  const { t } = useTranslation();
  const roles = useRoles();
  const mine = useUserPermissions();
  const records = roles.data ? sortRoles(roles.data) : [];
  const descriptions = descriptionsOf(mine.data, ...records.map((r) => r.permissions));
  const groups = groupPermissions(
    records.flatMap((r) => r.permissions.map((p) => p.permissionCode)),
  );

  return (
    <PageLayout title={t('platform.roles.title')}>
      {roles.isError && <FormError message={errorText(roles.error)} />}
      {records.map((role) => (
        <RoleEditor
          // A new version (after a save) starts a fresh draft.
          key={`${role.roleCode}:${role.version}`}
          role={role}
          groups={groups}
          descriptions={descriptions}
        />
      ))}
    </PageLayout>
  );
}

function RoleEditor({
  role,
  groups,
  descriptions,
}: {
  role: RoleRecord;
  groups: Record<PermissionGroup, string[]>;
  descriptions: Record<string, string>;
}) {
  const { t } = useTranslation();
  const held = useSessionStore((s) => s.permissions);
  const update = useUpdateRolePermissions();
  const original = role.permissions.map((p) => p.permissionCode);
  const [codes, setCodes] = useState<string[]>(original);
  const [error, setError] = useState<string | null>(null);
  const readOnly = role.roleCode === 'SUPER_ADMIN' || role.roleCode === 'CUSTOMER';
  const dirty = !sameCodes(codes, original);

  const save = async () => {
    setError(null);
    try {
      await update.mutateAsync({
        roleCode: role.roleCode,
        version: role.version,
        permissionCodes: codes,
      });
      showMessage('success', t('platform.roles.saved', { role: role.roleCode }));
    } catch (e) {
      setError(errorText(e));
    }
  };

  return (
    <Card withBorder data-role={role.roleCode} aria-label={role.roleCode} component="section">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <Title order={4}>
            {t(`platform.roleName.${role.roleCode}`, { defaultValue: role.roleCode })}
          </Title>
          <Badge variant="outline">{role.roleCode}</Badge>
          <Text size="sm" c="dimmed">
            {role.roleDescription} · {t('platform.roles.sortNo', { n: role.sortNo })} ·{' '}
            {t('platform.roles.count', { count: codes.length })}
          </Text>
        </Group>
        {!readOnly && (
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              disabled={!dirty || update.isPending}
              onClick={() => {
                setCodes(original);
                setError(null);
              }}
            >
              {t('platform.common.reset')}
            </Button>
            <Button
              size="xs"
              disabled={!dirty}
              loading={update.isPending}
              onClick={() => void save()}
            >
              {t('platform.common.save')}
            </Button>
          </Group>
        )}
      </Group>
      {readOnly && (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />} mb="sm">
          {t(
            role.roleCode === 'SUPER_ADMIN'
              ? 'platform.roles.superAdminNote'
              : 'platform.roles.customerNote',
          )}
        </Alert>
      )}
      {role.roleCode !== 'CUSTOMER' && (
        <Checkbox.Group value={codes} onChange={setCodes}>
          <SimpleGrid cols={{ base: 1, md: 3 }}>
            {(Object.keys(groups) as PermissionGroup[]).map((g) => (
              <Stack key={g} gap={6}>
                <Text fw={600} size="sm">
                  {t(GROUP_TITLES[g])}
                </Text>
                {groups[g].map((code) => (
                  <Checkbox
                    key={code}
                    value={code}
                    disabled={readOnly || (!held.includes(code) && !original.includes(code))}
                    label={t(`platform.perm.${permKey(code)}`, {
                      defaultValue: descriptions[code] ?? code,
                    })}
                    description={code}
                  />
                ))}
              </Stack>
            ))}
          </SimpleGrid>
        </Checkbox.Group>
      )}
      <FormError message={error} />
    </Card>
  );
}
