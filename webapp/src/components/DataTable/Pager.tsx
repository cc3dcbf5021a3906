// The pager of spec 2.6: total, prev, 5 page buttons, next, page size, jumper.
import { useState } from 'react';
import { ActionIcon, Button, Group, NumberInput, Select, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZES, pageCount, pageWindow } from './pager';

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (size: number) => void;
  pageSizes?: readonly number[];
}

export function Pager({
  page,
  pageSize,
  total,
  onPageChange,
  onPageSizeChange,
  pageSizes = PAGE_SIZES,
}: PagerProps) {
  const { t } = useTranslation();
  const pages = pageCount(total, pageSize);
  const current = Math.min(Math.max(1, page), pages);
  const [jump, setJump] = useState<string | number>('');

  const go = (p: number) => {
    const next = Math.min(Math.max(1, Math.trunc(p)), pages);
    if (next !== current) onPageChange(next);
  };

  return (
    <Group
      gap="xs"
      justify="flex-end"
      wrap="wrap"
      role="navigation"
      aria-label={t('table.pagination')}
    >
      <Text size="sm">{t('table.total', { count: total })}</Text>
      {onPageSizeChange && (
        <Select
          size="xs"
          w={110}
          aria-label={t('table.pageSize')}
          value={String(pageSize)}
          allowDeselect={false}
          data={pageSizes.map((s) => ({
            value: String(s),
            label: t('table.perPage', { count: s }),
          }))}
          onChange={(v) => v && onPageSizeChange(Number(v))}
        />
      )}
      <ActionIcon
        variant="default"
        disabled={current <= 1}
        onClick={() => go(current - 1)}
        aria-label={t('table.prev')}
      >
        <IconChevronLeft size={16} />
      </ActionIcon>
      {pageWindow(current, pages).map((p) => (
        <Button
          key={p}
          size="compact-sm"
          variant={p === current ? 'filled' : 'default'}
          aria-current={p === current ? 'page' : undefined}
          aria-label={t('table.page', { page: p })}
          onClick={() => go(p)}
        >
          {p}
        </Button>
      ))}
      <ActionIcon
        variant="default"
        disabled={current >= pages}
        onClick={() => go(current + 1)}
        aria-label={t('table.next')}
      >
        <IconChevronRight size={16} />
      </ActionIcon>
      <Group gap={4} wrap="nowrap">
        <Text size="sm">{t('table.goto')}</Text>
        <NumberInput
          size="xs"
          w={64}
          min={1}
          max={pages}
          hideControls
          aria-label={t('table.jumper')}
          value={jump}
          onChange={setJump}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && jump !== '') {
              go(Number(jump));
              setJump('');
            }
          }}
          onBlur={() => {
            if (jump !== '') go(Number(jump));
            setJump('');
          }}
        />
        <Text size="sm">{t('table.pageUnit')}</Text>
      </Group>
    </Group>
  );
}
