// The staff home's "held by customs" card with the threshold staff choose: no receipt for
// 4 h, 24 h, 72 h or 7 days after sending counts as held (remembered in the UI state).
import { Group, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CustomsHoldsCard } from '@/shared/customs/components/CustomsHoldsCard';
import { HOLD_THRESHOLDS, useHoldsThreshold } from '../model/holdsThreshold';

export function CustomsHoldsPanel() {
  const { t } = useTranslation();
  const silentHours = useHoldsThreshold((s) => s.silentHours);
  const setSilentHours = useHoldsThreshold((s) => s.setSilentHours);
  const options = HOLD_THRESHOLDS.map((h) => ({
    value: String(h),
    label:
      h % 24 === 0 && h > 24
        ? t('customs.holds.threshold.days', { count: h / 24 })
        : t('customs.holds.threshold.hours', { count: h }),
  }));
  return (
    <Stack gap={4}>
      <Group justify="flex-end">
        <Select
          size="xs"
          w={200}
          label={t('customs.holds.threshold.label')}
          data={options}
          value={String(silentHours)}
          allowDeselect={false}
          onChange={(v) => v && setSilentHours(Number(v))}
          comboboxProps={{ withinPortal: false }}
        />
      </Group>
      <CustomsHoldsCard silentHours={silentHours} />
    </Stack>
  );
}
