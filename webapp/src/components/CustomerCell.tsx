// A list's customer cell: the username, the company name dimmed and cut below it.
import { Stack, Text } from '@mantine/core';

export function CustomerCell({
  username,
  companyName,
  maw,
}: {
  username: string;
  companyName?: string | null;
  maw: number;
}) {
  return (
    <Stack gap={0} maw={maw}>
      <Text size="sm">{username}</Text>
      {companyName && (
        <Text size="xs" c="dimmed" truncate title={companyName}>
          {companyName}
        </Text>
      )}
    </Stack>
  );
}
