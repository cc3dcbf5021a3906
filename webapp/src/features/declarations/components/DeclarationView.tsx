// A declaration's fields, read-only, in the groups of docs/fields.md, with its goods lines
// and products. Used by the detail page and the print view.
import { Fragment, type ReactNode } from 'react';
import { Badge, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useDeclT } from '@/shared/declarations/i18n';
import {
  GOODS_FIELDS,
  PRODUCT_FIELDS,
  fieldApplies,
  orderedGroups,
  primaryGroupIds,
} from '@/shared/declarations/model/fields';
import { present } from '@/shared/declarations/model/validation';
import { requiredFields } from '@/shared/declarations/model/validation';
import type { Declaration, GoodsLine } from '@/shared/declarations/model/types';
import { classOf, directionOf } from '@/shared/declarations/model/types';
import { FieldValue } from './FieldValue';
import { useRefLabel } from '@/shared/declarations/components/useRefLabels';
import { useFieldText } from './useFieldText';

export interface DeclarationViewProps {
  declaration: Declaration;
  /** Show empty fields of every group (otherwise only those of the class's main groups). */
  showEmpty?: boolean;
  /** Compact rendering for the print view. */
  print?: boolean;
}

const isEmpty = (v: unknown) => present(v) === null;

export function DeclarationView({
  declaration,
  showEmpty = false,
  print = false,
}: DeclarationViewProps) {
  const { t } = useDeclT();
  const cls = classOf(declaration.declarationType);
  const direction = directionOf(declaration.declarationType);
  const primary = new Set(primaryGroupIds(cls));
  const required = new Set(requiredFields(cls, direction).header);
  const d = declaration as Record<string, unknown>;

  const groups = orderedGroups(cls).map((g) => {
    const fields = g.fields.filter((f) => fieldApplies(f, direction));
    const shown = fields.filter((f) => showEmpty || primary.has(g.id) || !isEmpty(d[f.name]));
    return { group: g, fields: shown, filled: fields.some((f) => !isEmpty(d[f.name])) };
  });
  const goods = declaration.declarationGoodsInfo ?? [];
  const products = declaration.products ?? [];
  const declareType = declaration.declareType ?? [];

  const sections = groups
    .filter((g) => g.fields.length > 0)
    .map(({ group, fields }) => (
      <Section key={group.id} title={t(`group.${group.id}`)} print={print}>
        <SimpleGrid
          cols={print ? 3 : { base: 1, sm: 2, lg: 3 }}
          spacing={print ? 'xs' : 'md'}
          verticalSpacing={print ? 4 : 'sm'}
        >
          {fields.map((f) => (
            <div key={f.name} style={f.kind === 'textarea' ? { gridColumn: '1 / -1' } : undefined}>
              <Text size="xs" c="dimmed">
                {t(`field.${f.name}`)}
                {required.has(f.name) ? ' *' : ''}
              </Text>
              <FieldValue
                kind={f.kind}
                table={f.table}
                value={d[f.name]}
                size={print ? 'xs' : 'sm'}
              />
            </div>
          ))}
        </SimpleGrid>
      </Section>
    ));

  const goodsSection = (
    <Section key="goods" title={`${t('group.goods')} (${goods.length})`} print={print}>
      <GoodsTable lines={goods} print={print} />
    </Section>
  );

  const extras = (products.length > 0 || declareType.length > 0 || showEmpty) && (
    <Section key="products" title={t('group.products')} print={print}>
      <Stack gap="xs">
        {declareType.length > 0 && (
          <Group gap="xs">
            <Text size="xs" c="dimmed">
              {t('field.declareType')}
            </Text>
            {declareType.map((v) => (
              <Badge key={v} variant="outline" size="sm">
                {v}
              </Badge>
            ))}
          </Group>
        )}
        {products.length > 0 ? (
          <Table withTableBorder withColumnBorders fz={print ? 'xs' : 'sm'}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={50}>#</Table.Th>
                {PRODUCT_FIELDS.map((f) => (
                  <Table.Th key={f}>{t(`product.${f}`)}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.map((p, i) => (
                <Table.Tr key={i}>
                  <Table.Td>{i + 1}</Table.Td>
                  {PRODUCT_FIELDS.map((f) => (
                    <Table.Td key={f}>{p[f] ?? ''}</Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text size="sm" c="dimmed">
            {t('common.none')}
          </Text>
        )}
      </Stack>
    </Section>
  );

  // B/C: the goods lines right after the shipment form; D: after the header.
  const insertAt = cls === 'D' ? sections.length : Math.min(sections.length, 4);
  return (
    <Stack gap={print ? 'xs' : 'md'}>
      {sections.slice(0, insertAt)}
      {goodsSection}
      {extras}
      {sections.slice(insertAt)}
    </Stack>
  );
}

function Section({
  title,
  children,
  print,
}: {
  title: string;
  children: ReactNode;
  print?: boolean;
}) {
  if (print)
    return (
      <section className="print-section">
        <Title order={3} size="h6" mb={4} className="print-section-title">
          {title}
        </Title>
        {children}
      </section>
    );
  return (
    <Card withBorder padding="md" component="section">
      <Title order={2} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

const MAIN_GOODS = [
  'goodsNo',
  'goodsCode',
  'goodsName',
  'goodsQuantity',
  'goodsUnit',
  'unitPrice',
  'totalPrice',
  'currency',
] as const;

/** Goods lines, read-only: the main columns, then the line's other filled fields below. */
export function GoodsTable({ lines, print }: { lines: GoodsLine[]; print?: boolean }) {
  const { t } = useDeclT();
  const unit = useRefLabel('units');
  const text = useFieldText();
  const others = GOODS_FIELDS.filter((f) => !(MAIN_GOODS as readonly string[]).includes(f.name));
  const refs = {
    countries: useRefLabel('countries'),
    districts: useRefLabel('districts'),
    'levy-methods': useRefLabel('levy-methods'),
    units: unit,
    currencies: useRefLabel('currencies'),
  } as Record<string, (c: string) => string>;
  if (lines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('common.none')}
      </Text>
    );
  return (
    <Table.ScrollContainer minWidth={print ? 0 : 720}>
      <Table
        withTableBorder
        withColumnBorders
        fz={print ? 'xs' : 'sm'}
        verticalSpacing={print ? 2 : 'xs'}
      >
        <Table.Thead>
          <Table.Tr>
            {MAIN_GOODS.map((f) => (
              <Table.Th
                key={f}
                ta={['goodsQuantity', 'unitPrice', 'totalPrice'].includes(f) ? 'right' : undefined}
              >
                {t(`goods.${f}`)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line, i) => {
            const extra = others
              .filter((f) => present(line[f.name]) !== null)
              .map(
                (f) =>
                  `${t(`goods.${f.name}`)}: ${text(f.kind, line[f.name], f.table ? refs[f.table] : undefined)}`,
              );
            return (
              <Fragment key={i}>
                <Table.Tr>
                  <Table.Td>{line.goodsNo ?? i + 1}</Table.Td>
                  <Table.Td ff="monospace">{line.goodsCode}</Table.Td>
                  <Table.Td>{line.goodsName}</Table.Td>
                  <Table.Td ta="right">{line.goodsQuantity}</Table.Td>
                  <Table.Td>{unit(line.goodsUnit)}</Table.Td>
                  <Table.Td ta="right">{line.unitPrice}</Table.Td>
                  <Table.Td ta="right">{line.totalPrice}</Table.Td>
                  <Table.Td>{line.currency}</Table.Td>
                </Table.Tr>
                {extra.length > 0 && (
                  <Table.Tr>
                    <Table.Td colSpan={MAIN_GOODS.length}>
                      <Text size="xs" c="dimmed">
                        {extra.join('；')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
