// The body of the declaration form: every field group of the class in collapsible panels
// (B/C lead with the shipment form and goods lines, D with the full header), the goods
// lines and the products, each panel counting its problems. The create/edit form and the
// assisted creation wizard both show the form through this one component.
import type { ReactNode } from 'react';
import { Accordion, Badge, Group, SimpleGrid, Text } from '@mantine/core';
import type { DeclarationType } from '@/lib/declarations';
import { useDeclT } from '@/shared/declarations/i18n';
import { fieldApplies, groupOfPath, orderedGroups } from '@/shared/declarations/model/fields';
import { classOf, directionOf } from '@/shared/declarations/model/types';
import { requiredFields } from '@/shared/declarations/model/validation';
import { FormInput, type DeclarationFormApi } from './FormInput';
import { GoodsEditor } from './GoodsEditor';
import { ProductsEditor } from './ProductsEditor';

export interface FormSectionsProps {
  form: DeclarationFormApi;
  declarationType: DeclarationType;
  /** The problems shown, by form path (`declarationGoodsInfo.0.goodsCode`). */
  problems: readonly { path: string }[];
  /** Open panels (group ids, `goods`, `products`, and the caller's own). */
  open: string[];
  onOpenChange: (open: string[]) => void;
  /** Staff filing for a customer: whose product library the goods-line picker searches. */
  customerId?: string;
  /** Panels of the caller's shown first (the owning customer). */
  leading?: ReactNode;
}

export function FormSections({
  form,
  declarationType,
  problems,
  open,
  onOpenChange,
  customerId,
  leading,
}: FormSectionsProps) {
  const { t } = useDeclT();
  const cls = classOf(declarationType);
  const direction = directionOf(declarationType);
  const required = requiredFields(cls, direction);
  const requiredHeader = new Set(required.header);
  const requiredGoods = new Set(required.goods);
  const groups = orderedGroups(cls);

  const groupItem = (id: string) => {
    const g = groups.find((x) => x.id === id)!;
    const fields = g.fields.filter((f) => fieldApplies(f, direction));
    const errorCount = problems.filter((p) => groupOfPath(p.path) === id).length;
    return (
      <Accordion.Item value={g.id} key={g.id}>
        <Accordion.Control>
          <Group gap="xs">
            <Text fw={600}>{t(`group.${g.id}`)}</Text>
            {errorCount > 0 && (
              <Badge color="red" size="sm">
                {errorCount}
              </Badge>
            )}
          </Group>
        </Accordion.Control>
        <Accordion.Panel>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" verticalSpacing="sm">
            {fields.map((f) => (
              <div
                key={f.name}
                style={f.kind === 'textarea' ? { gridColumn: '1 / -1' } : undefined}
              >
                <FormInput
                  form={form}
                  path={f.name}
                  kind={f.kind}
                  table={f.table}
                  label={t(`field.${f.name}`)}
                  required={requiredHeader.has(f.name)}
                />
              </div>
            ))}
          </SimpleGrid>
        </Accordion.Panel>
      </Accordion.Item>
    );
  };

  const goodsErrors = problems.filter((p) => groupOfPath(p.path) === 'goods').length;
  const goodsItem = (
    <Accordion.Item value="goods" key="goods">
      <Accordion.Control>
        <Group gap="xs">
          <Text fw={600}>{t('group.goods')}</Text>
          <Badge variant="light" size="sm">
            {form.values.declarationGoodsInfo.length}
          </Badge>
          {goodsErrors > 0 && (
            <Badge color="red" size="sm">
              {goodsErrors}
            </Badge>
          )}
        </Group>
      </Accordion.Control>
      <Accordion.Panel>
        <GoodsEditor
          form={form}
          required={requiredGoods}
          detailsOpen={cls === 'D'}
          customerId={customerId}
        />
      </Accordion.Panel>
    </Accordion.Item>
  );
  const productsItem = (
    <Accordion.Item value="products" key="products">
      <Accordion.Control>
        <Text fw={600}>{t('group.products')}</Text>
      </Accordion.Control>
      <Accordion.Panel>
        <ProductsEditor form={form} />
      </Accordion.Panel>
    </Accordion.Item>
  );

  const ids = groups.map((g) => g.id);
  const goodsAt = cls === 'D' ? ids.length : Math.min(ids.length, 4);

  return (
    <Accordion
      multiple
      value={open}
      onChange={onOpenChange}
      variant="separated"
      chevronPosition="left"
    >
      {leading}
      {ids.slice(0, goodsAt).map(groupItem)}
      {goodsItem}
      {cls !== 'D' && productsItem}
      {ids.slice(goodsAt).map(groupItem)}
      {cls === 'D' && productsItem}
    </Accordion>
  );
}
