// What an edit changed, field by field: the form's own fields as old -> new, and per goods
// line (or shipment-form product) whether it was added, removed or changed, with its fields
// labelled in the reader's language. The declaration's history and the compliance event
// log both show edits through it.
import { Fragment, useState, type ReactNode } from 'react';
import { Anchor, Badge, Code, Group, List, Stack, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { useDeclT } from '@/shared/declarations/i18n';
import { formatValue } from '@/shared/declarations/model/format';
import { groupChanges, type LineDiff } from '@/shared/declarations/model/history';
import { useChangeLabel } from './useChangeLabel';

export interface Change {
  field: string;
  old: unknown;
  new: unknown;
}

const KIND_COLORS = { added: 'green', removed: 'red', changed: 'blue' } as const;

function OldToNew({ old, next }: { old: unknown; next: unknown }) {
  return (
    <>
      <Code fz="xs" data-old>
        {formatValue(old)}
      </Code>
      <IconArrowRight size={11} style={{ margin: '0 4px', verticalAlign: 'middle' }} />
      <Code fz="xs" data-new>
        {formatValue(next)}
      </Code>
    </>
  );
}

function Line({ line }: { line: LineDiff }) {
  const { t } = useDeclT();
  const title = t(line.group === 'products' ? 'history.productLine' : 'history.goodsLine', {
    n: line.index + 1,
  });
  const fieldLabel = (sub: string) =>
    line.group === 'products'
      ? t(`product.${sub}`, { defaultValue: sub })
      : t(`goods.${sub}`, { defaultValue: sub });
  return (
    <Stack gap={2} data-line={`${line.group}[${line.index}]`} data-line-kind={line.kind}>
      <Group gap={6}>
        <Text span size="xs" fw={600}>
          {title}
        </Text>
        <Badge size="xs" variant="light" color={KIND_COLORS[line.kind]}>
          {t(`history.lineKind.${line.kind}`)}
        </Badge>
      </Group>
      {line.fields.length === 0 ? (
        <Text size="xs" c="dimmed" pl="sm">
          {t('history.lineEmpty')}
        </Text>
      ) : (
        <List size="xs" spacing={2} withPadding>
          {line.fields.map((f) => (
            <List.Item key={f.sub} data-line-field={f.sub}>
              <Text span size="xs" fw={500}>
                {fieldLabel(f.sub)}
              </Text>{' '}
              {line.kind === 'changed' ? (
                <OldToNew old={f.old} next={f.new} />
              ) : (
                <Code fz="xs" td={line.kind === 'removed' ? 'line-through' : undefined}>
                  {formatValue(line.kind === 'added' ? f.new : f.old)}
                </Code>
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/**
 * `changes` grouped into the form's fields and the lines, the first `limit` items shown
 * (a field or a whole line each) with the rest one click away.
 */
export function ChangeDiff({ changes, limit = 5 }: { changes: readonly Change[]; limit?: number }) {
  const label = useChangeLabel();
  const [all, setAll] = useState(false);
  const grouped = groupChanges(changes);
  const items: { key: string; node: ReactNode }[] = [
    ...grouped.fields.map((c, i) => ({
      key: `f-${c.field}-${i}`,
      node: (
        <List size="xs" spacing={2} withPadding>
          <List.Item data-field={c.field}>
            <Text span size="xs" fw={500}>
              {label(c.field)}
            </Text>{' '}
            <OldToNew old={c.old} next={c.new} />
          </List.Item>
        </List>
      ),
    })),
    ...grouped.lines.map((l) => ({
      key: `l-${l.group}-${l.index}`,
      node: <Line line={l} />,
    })),
  ];
  const shown = all ? items : items.slice(0, limit);
  return (
    <Stack gap={4} data-change-diff>
      {shown.map((item) => (
        <Fragment key={item.key}>{item.node}</Fragment>
      ))}
      {items.length > limit && (
        <Anchor component="button" type="button" size="xs" onClick={() => setAll((v) => !v)}>
          {all ? '−' : `+${items.length - limit}`}
        </Anchor>
      )}
    </Stack>
  );
}
