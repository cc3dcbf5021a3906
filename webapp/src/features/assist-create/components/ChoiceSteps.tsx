// Steps 1 and 2: whose declaration (staff pick a customer; a customer is themselves) and
// which type (the six codes, each class explained).
import { Alert, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconBuilding } from '@tabler/icons-react';
import { CustomerPicker } from '@/shared/customers/components/CustomerPicker';
import { DECLARATION_TYPES, type DeclarationType } from '@/lib/declarations';
import { useSessionStore } from '@/lib/session';
import { classOf } from '@/shared/declarations/model/types';
import { useAssistT } from '../i18n';

export function CustomerStep({
  staff,
  customerId,
  onChange,
  error,
}: {
  staff: boolean;
  customerId: string;
  onChange: (id: string, label: string) => void;
  error: string | null;
}) {
  const { t } = useAssistT();
  const company = useSessionStore((s) => s.userinfo?.department ?? '');
  if (!staff)
    return (
      <Alert icon={<IconBuilding size={18} />} color="blue">
        {company ? t('customer.self', { company }) : t('customer.selfUnknown')}
      </Alert>
    );
  return (
    <CustomerPicker
      label={t('customer.label')}
      placeholder={t('customer.placeholder')}
      value={customerId}
      onChange={(id, c) => onChange(id, c ? `${c.username} ${c.companyName ?? ''}`.trim() : '')}
      withAsterisk
      error={error}
      maw={480}
    />
  );
}

export function TypeStep({
  value,
  onChange,
}: {
  value: DeclarationType | null;
  onChange: (type: DeclarationType) => void;
}) {
  const { t } = useAssistT();
  return (
    <Radio.Group
      label={t('type.label')}
      value={value ?? ''}
      onChange={(v) => onChange(v as DeclarationType)}
      withAsterisk
    >
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} mt="xs">
        {DECLARATION_TYPES.map((code) => (
          <Radio.Card key={code} value={code} p="md" radius="md" aria-label={t(`type.${code}`)}>
            <Stack gap={4}>
              <Radio.Indicator />
              <Text fw={600}>
                {code} · {t(`type.${code}`)}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`type.explain.${classOf(code)}`)}
              </Text>
            </Stack>
          </Radio.Card>
        ))}
      </SimpleGrid>
    </Radio.Group>
  );
}
