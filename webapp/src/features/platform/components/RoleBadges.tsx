import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Role codes as badges with their translated names. */
export function RoleBadges({ roles }: { roles: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap">
      {roles.map((r) => (
        <Badge key={r} size="sm" variant="light" color={r === 'SUPER_ADMIN' ? 'grape' : 'blue'}>
          {t(`platform.roleName.${r}`, { defaultValue: r })}
        </Badge>
      ))}
    </Group>
  );
}
