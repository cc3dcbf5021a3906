// The header's tracking-number search, for every role: case, spaces and hyphens do not
// matter ("1z 999aa1 0123…" finds "1Z999AA1 0123…"). Customers and staff land on the
// shipment's declarations (`/find`, the server answers only what the caller may see); the
// compliance reviewer on the event log filtered by the number (everything about a
// shipment in one place).
import { useState } from 'react';
import { ActionIcon, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { compactTracking } from '@/lib/fieldRules';
import { useSessionStore } from '@/lib/session';
import { searchTarget } from './searchTarget';

export function TrackingSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const role = useSessionStore((s) => s.role);
  const [value, setValue] = useState('');
  const go = () => {
    const number = compactTracking(value.trim());
    if (!number) return;
    navigate(searchTarget(role, number));
    setValue('');
  };
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        go();
      }}
    >
      <TextInput
        size="xs"
        w={{ base: 130, sm: 200 }}
        aria-label={t('header.search')}
        placeholder={t('header.searchPlaceholder')}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        rightSection={
          <ActionIcon
            type="submit"
            variant="subtle"
            size="sm"
            aria-label={t('header.searchGo')}
            disabled={!value.trim()}
          >
            <IconSearch size={14} />
          </ActionIcon>
        }
      />
    </form>
  );
}
