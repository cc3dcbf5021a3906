import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@/lib/i18n';

/** Switches between Chinese (default) and English; remembered in storage. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language?.startsWith('en') ? 'en' : 'zh';
  return (
    <Tooltip label={t('header.language')}>
      <ActionIcon
        variant="subtle"
        size="lg"
        aria-label={t('header.language')}
        onClick={() => setLanguage(lang === 'en' ? 'zh' : 'en')}
      >
        <Group gap={2} wrap="nowrap">
          <IconLanguage size={18} />
          <Text size="xs">{lang === 'en' ? '中' : 'EN'}</Text>
        </Group>
      </ActionIcon>
    </Tooltip>
  );
}

