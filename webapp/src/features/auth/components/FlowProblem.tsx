import type { ReactNode } from 'react';
import { Alert, Anchor, Group, Stack } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';

/** A flow page that cannot go on: what happened and where to go instead. */
export function FlowProblem({
  title,
  children,
  links,
}: {
  title: string;
  children: ReactNode;
  links: { to: string; label: string }[];
}) {
  return (
    <Stack>
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={title} role="alert">
        {children}
      </Alert>
      <Group justify="space-between">
        {links.map((l) => (
          <Anchor key={l.to} component={Link} to={l.to} size="sm">
            {l.label}
          </Anchor>
        ))}
      </Group>
    </Stack>
  );
}
