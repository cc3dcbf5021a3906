// The shipment form's product lines (productDescription, English description, HTS code)
// and its declaration-type flags.
import { ActionIcon, Button, Group, Table, TagsInput, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useDeclT } from '@/shared/declarations/i18n';
import { PRODUCT_FIELDS } from '@/shared/declarations/model/fields';
import { emptyProduct } from '@/shared/declarations/model/formValues';
import type { DeclarationFormApi } from './FormInput';

export function ProductsEditor({ form }: { form: DeclarationFormApi }) {
  const { t } = useDeclT();
  const products = form.values.products;
  return (
    <>
      <TagsInput
        label={t('field.declareType')}
        placeholder={t('form.declareTypePlaceholder')}
        value={form.values.declareType}
        onChange={(v) => form.setFieldValue('declareType', v)}
        error={form.errors.declareType}
        mb="sm"
        clearable
      />
      {products.length > 0 && (
        <Table withTableBorder verticalSpacing={6} horizontalSpacing={6} mb="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>#</Table.Th>
              {PRODUCT_FIELDS.map((f) => (
                <Table.Th key={f}>{t(`product.${f}`)}</Table.Th>
              ))}
              <Table.Th w={50} />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {products.map((_, i) => (
              <Table.Tr key={i}>
                <Table.Td>{i + 1}</Table.Td>
                {PRODUCT_FIELDS.map((f) => (
                  <Table.Td key={f}>
                    <TextInput
                      size="xs"
                      aria-label={`${t(`product.${f}`)} ${i + 1}`}
                      {...form.getInputProps(`products.${i}.${f}`)}
                    />
                  </Table.Td>
                ))}
                <Table.Td>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`${t('form.removeLine')} ${i + 1}`}
                    onClick={() => form.removeListItem('products', i)}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group>
        <Button
          variant="light"
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => form.insertListItem('products', emptyProduct())}
        >
          {t('form.addProduct')}
        </Button>
      </Group>
    </>
  );
}
