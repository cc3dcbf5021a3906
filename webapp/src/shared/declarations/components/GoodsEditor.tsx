// Goods lines as an editable table: the main columns inline, the line's other fields in an
// expandable row; add, duplicate and remove lines; totals per currency.
import { Fragment, useState } from 'react';
import { ActionIcon, Badge, Button, Group, SimpleGrid, Table, Text, Tooltip } from '@mantine/core';
import {
  IconCalculator,
  IconChevronDown,
  IconChevronUp,
  IconCopy,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useDeclT } from '@/shared/declarations/i18n';
import { GOODS_FIELDS } from '@/shared/declarations/model/fields';
import { formatNumber } from '@/shared/declarations/model/format';
import { emptyGoodsLine } from '@/shared/declarations/model/formValues';
import { expectedTotal, goodsTotals } from '@/shared/declarations/model/validation';
import type { GoodsLine } from '@/shared/declarations/model/types';
import { FormInput, type DeclarationFormApi } from './FormInput';
import { ProductPicker } from '@/shared/master-data/components/ProductPicker';
import { HsCodeInput } from '@/shared/hs-codes/components/HsCodeInput';
import { goodsFromProduct } from '@/shared/master-data/model/product';

const COLUMNS = GOODS_FIELDS.filter((f) => f.column);
const DETAILS = GOODS_FIELDS.filter((f) => !f.column);
const COLUMN_WIDTHS: Record<string, number> = {
  goodsCode: 130,
  goodsName: 180,
  goodsQuantity: 90,
  goodsUnit: 150,
  unitPrice: 100,
  totalPrice: 120,
  currency: 130,
};

export interface GoodsEditorProps {
  form: DeclarationFormApi;
  /** Goods fields required on submit for this class. */
  required: ReadonlySet<string>;
  /** Open the details of every line at first (class D needs them). */
  detailsOpen?: boolean;
  /** Staff filing for a customer: whose product library the picker searches. */
  customerId?: string;
}

export function GoodsEditor({ form, required, detailsOpen = false, customerId }: GoodsEditorProps) {
  const { t } = useDeclT();
  const { i18n } = useTranslation();
  const lines = form.values.declarationGoodsInfo;
  const [toggled, setToggled] = useState<Set<number>>(new Set());
  const errors = form.errors;

  const hasDetailError = (i: number) =>
    DETAILS.some((f) => errors[`declarationGoodsInfo.${i}.${f.name}`]);
  const isOpen = (i: number) => hasDetailError(i) || (toggled.has(i) ? !detailsOpen : detailsOpen);
  const toggle = (i: number) =>
    setToggled((s) => {
      const n = new Set(s);
      if (n.has(i)) n.delete(i);
      else n.add(i);
      return n;
    });

  const add = () => form.insertListItem('declarationGoodsInfo', emptyGoodsLine(lines.length + 1));
  const duplicate = (i: number) =>
    form.insertListItem('declarationGoodsInfo', { ...lines[i], goodsNo: lines.length + 1 }, i + 1);
  const remove = (i: number) => {
    form.removeListItem('declarationGoodsInfo', i);
    setToggled(new Set());
  };
  const computeTotal = (i: number) => {
    const expected = expectedTotal(lines[i] as unknown as GoodsLine);
    if (expected !== null)
      form.setFieldValue(`declarationGoodsInfo.${i}.totalPrice`, Math.round(expected * 100) / 100);
  };

  const totals = goodsTotals(
    lines as unknown as GoodsLine[],
    String(form.values.currencyCode ?? ''),
  );
  const listError = errors.declarationGoodsInfo;

  return (
    <>
      <Table.ScrollContainer minWidth={1100}>
        <Table withTableBorder verticalSpacing={6} horizontalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>#</Table.Th>
              {COLUMNS.map((f) => (
                <Table.Th key={f.name} w={COLUMN_WIDTHS[f.name]}>
                  <Text size="sm" fw={700} span>
                    {t(`goods.${f.name}`)}
                  </Text>
                  {required.has(f.name) && (
                    <Text span c="red" aria-hidden>
                      {' '}
                      *
                    </Text>
                  )}
                </Table.Th>
              ))}
              <Table.Th w={110} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {lines.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length + 2}>
                  <Text c="dimmed" ta="center" size="sm" py="sm">
                    {t('form.noLines')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {lines.map((_, i) => {
              const open = isOpen(i);
              return (
                <Fragment key={i}>
                  <Table.Tr style={{ verticalAlign: 'top' }}>
                    <Table.Td>
                      <Text size="sm" pt={6}>
                        {i + 1}
                      </Text>
                    </Table.Td>
                    {COLUMNS.map((f) => (
                      <Table.Td key={f.name}>
                        <Group gap={2} wrap="nowrap" align="flex-start">
                          <div style={{ flex: 1, minWidth: 0 }}>
                            {f.name === 'goodsCode' ? (
                              // HS code suggestions for the line's goods name or the digits typed.
                              <HsCodeInput
                                {...form.getInputProps(`declarationGoodsInfo.${i}.goodsCode`)}
                                size="xs"
                                aria-label={`${t('goods.goodsCode')} ${i + 1}`}
                                withAsterisk={required.has('goodsCode')}
                                value={String(lines[i].goodsCode ?? '')}
                                onChange={(code) =>
                                  form.setFieldValue(`declarationGoodsInfo.${i}.goodsCode`, code)
                                }
                                description={String(lines[i].goodsName ?? '')}
                                customerId={customerId}
                              />
                            ) : (
                              <FormInput
                                form={form}
                                path={`declarationGoodsInfo.${i}.${f.name}`}
                                kind={f.kind}
                                table={f.table}
                                size="xs"
                                ariaLabel={`${t(`goods.${f.name}`)} ${i + 1}`}
                                required={required.has(f.name)}
                              />
                            )}
                          </div>
                          {f.name === 'totalPrice' && (
                            <Tooltip label={t('form.computeTotal')}>
                              <ActionIcon
                                variant="subtle"
                                size="md"
                                aria-label={`${t('form.computeTotal')} ${i + 1}`}
                                onClick={() => computeTotal(i)}
                              >
                                <IconCalculator size={16} />
                              </ActionIcon>
                            </Tooltip>
                          )}
                        </Group>
                      </Table.Td>
                    ))}
                    <Table.Td>
                      <Group gap={2} wrap="nowrap">
                        <Tooltip label={open ? t('form.lessFields') : t('form.moreFields')}>
                          <ActionIcon
                            variant="subtle"
                            color={hasDetailError(i) ? 'red' : undefined}
                            aria-expanded={open}
                            aria-label={`${open ? t('form.lessFields') : t('form.moreFields')} ${i + 1}`}
                            onClick={() => toggle(i)}
                          >
                            {open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('form.duplicateLine')}>
                          <ActionIcon
                            variant="subtle"
                            aria-label={`${t('form.duplicateLine')} ${i + 1}`}
                            onClick={() => duplicate(i)}
                          >
                            <IconCopy size={16} />
                          </ActionIcon>
                        </Tooltip>
                        <Tooltip label={t('form.removeLine')}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={`${t('form.removeLine')} ${i + 1}`}
                            onClick={() => remove(i)}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                  {open && (
                    <Table.Tr>
                      <Table.Td />
                      <Table.Td colSpan={COLUMNS.length + 1}>
                        <Group justify="space-between" mb={4}>
                          <Text size="xs" c="dimmed">
                            {t('form.lineDetails', { index: i + 1 })}
                          </Text>
                          <ProductPicker
                            size="xs"
                            w={320}
                            customerId={customerId}
                            onPick={(p) => {
                              for (const [k, v] of Object.entries(goodsFromProduct(p)))
                                form.setFieldValue(`declarationGoodsInfo.${i}.${k}`, v);
                            }}
                          />
                        </Group>
                        <SimpleGrid cols={{ base: 2, md: 4 }} spacing="xs" verticalSpacing={6}>
                          {DETAILS.map((f) => (
                            <FormInput
                              key={f.name}
                              form={form}
                              path={`declarationGoodsInfo.${i}.${f.name}`}
                              kind={f.kind}
                              table={f.table}
                              size="xs"
                              label={t(`goods.${f.name}`)}
                              required={required.has(f.name)}
                            />
                          ))}
                        </SimpleGrid>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {listError && (
        <Text c="red" size="sm" role="alert">
          {String(listError)}
        </Text>
      )}
      <Group justify="space-between" mt="xs">
        <Button variant="light" size="xs" leftSection={<IconPlus size={14} />} onClick={add}>
          {t('form.addLine')}
        </Button>
        <Group gap="xs">
          <Text size="sm" fw={500}>
            {t('form.totals')}
          </Text>
          <Badge variant="light">{t('form.lines', { count: totals.lines })}</Badge>
          <Badge variant="light">
            {t('form.quantity', { value: formatNumber(totals.quantity, i18n.language) })}
          </Badge>
          {Object.entries(totals.byCurrency).map(([cur, v]) => (
            <Badge key={cur} variant="light" color="teal">
              {formatNumber(v, i18n.language, 2)} {cur}
            </Badge>
          ))}
        </Group>
      </Group>
    </>
  );
}
