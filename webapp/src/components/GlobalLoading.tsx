// The request client's loading indicator (a thin bar, reference-counted) and the blocking
// overlay used by logout ("exiting") and downloads ("please wait").
import { Box, Loader, Overlay, Progress, Stack, Text } from '@mantine/core';
import { useLoadingStore } from '@/lib/loading';

export function GlobalLoading() {
  const pending = useLoadingStore((s) => s.pending);
  const blocking = useLoadingStore((s) => s.blocking);
  return (
    <>
      {pending > 0 && (
        <Box
          pos="fixed"
          top={0}
          left={0}
          right={0}
          style={{ zIndex: 1000 }}
          role="progressbar"
          aria-busy="true"
        >
          <Progress value={100} animated size={3} radius={0} />
        </Box>
      )}
      {blocking && (
        <Overlay fixed zIndex={3000} backgroundOpacity={0.55} center>
          <Stack
            align="center"
            gap="sm"
            role="alertdialog"
            aria-live="assertive"
            aria-label={blocking}
          >
            <Loader color="white" />
            <Text c="white" fw={500}>
              {blocking}
            </Text>
          </Stack>
        </Overlay>
      )}
    </>
  );
}
