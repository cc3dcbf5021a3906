// Keyword box + search/reset buttons; remounted (by key) when the URL's keyword changes.
import { useState } from 'react';
import { Button, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export interface KeywordSearchProps {
  initial: string;
  placeholder: string;
  onSearch: (keyword: string) => void;
  onReset: () => void;
}

export function KeywordSearch({ initial, placeholder, onSearch, onReset }: KeywordSearchProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState(initial);
  return (
    <Group
      component="form"
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(keyword.trim());
      }}
    >
      <TextInput
        aria-label={t('platform.common.keyword')}
        placeholder={placeholder}
        value={keyword}
        maxLength={100}
        onChange={(e) => setKeyword(e.currentTarget.value)}
        leftSection={<IconSearch size={16} />}
        w={320}
      />
      <Button type="submit">{t('platform.common.search')}</Button>
      <Button
        variant="default"
        onClick={() => {
          setKeyword('');
          onReset();
        }}
      >
        {t('platform.common.reset')}
      </Button>
    </Group>
  );
}
