import { lazy, Suspense, useState } from 'react';
import { Anchor, Box, Button, Popover, Stack, Text } from '@mantine/core';
import { IconFileSpreadsheet, IconMail } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { exportContacts } from '@/config';
import { useCanExport } from '@/lib/exportRights';

// The declarations engineer replaces this stub with their dialog (see the file).
const ExportReportDialog = lazy(
  () => import('@/features/declarations/components/ExportReportDialog'),
);

/** Who may export (admins): the export-report button. Others: the contact block. */
export function SidebarFooter() {
  const { t } = useTranslation();
  const mayExport = useCanExport('declarations');
  const [exportOpen, setExportOpen] = useState(false);

  if (mayExport) {
    return (
      <Box p="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
        <Button
          fullWidth
          leftSection={<IconFileSpreadsheet size={18} />}
          onClick={() => setExportOpen(true)}
        >
          {t('export.button')}
        </Button>
        {exportOpen && (
          <Suspense fallback={null}>
            <ExportReportDialog opened={exportOpen} onClose={() => setExportOpen(false)} />
          </Suspense>
        )}
      </Box>
    );
  }

  return (
    <Box p="md" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <Popover position="right-end" withArrow shadow="md" width={280}>
        <Popover.Target>
          <Button variant="light" fullWidth leftSection={<IconMail size={18} />}>
            {t('contact.invite')}
          </Button>
        </Popover.Target>
        <Popover.Dropdown>
          <Text fw={600} mb="xs">
            {t('contact.title')}
          </Text>
          <Stack gap="sm">
            {exportContacts.map((c) => (
              <div key={c.portKey}>
                <Text size="sm" fw={500}>
                  {t(c.portKey)}
                </Text>
                <Text size="sm">
                  {t('contact.person')}: {c.name}
                </Text>
                <Text size="sm">
                  {t('contact.email')}: <Anchor href={`mailto:${c.email}`}>{c.email}</Anchor>
                </Text>
              </div>
            ))}
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Box>
  );
}
