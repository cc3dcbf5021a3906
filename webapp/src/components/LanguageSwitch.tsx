import { Button, Tooltip } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '@/lib/i18n';

/** Switches between Chinese (default) and English; remembered in storage. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language?.startsWith('en') ? 'en' : 'zh';
  return (
    <Tooltip label={t('header.language')}>
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconLanguage size={16} />}
        aria-label={t('header.language')}
        lang={lang === 'en' ? 'zh' : 'en'}
        onClick={() => setLanguage(lang === 'en' ? 'zh' : 'en')}
      >
        {lang === 'en' ? '中文' : 'English'}
      </Button>
    </Tooltip>
  );
}
