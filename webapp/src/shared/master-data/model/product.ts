// A library product as the goods-line fields of the declaration form.
import type { ProductRecord } from '@/shared/master-data/api/types';

/** The goods-line fields a product fills (only those the product has). */
export function goodsFromProduct(p: ProductRecord): Record<string, string | number> {
  const out: Record<string, string | number> = {
    goodsCode: p.hsCode,
    goodsName: p.descriptionCn,
    goodsUnit: p.declaredUnit,
  };
  const optional: [string, string | number | null | undefined][] = [
    ['specification', p.declarationElements],
    ['originCountry', p.originCountry],
    ['unitOne', p.legalUnitOne],
    ['unitTwo', p.legalUnitTwo],
    ['currency', p.currency],
    ['unitPrice', p.unitPrice == null ? null : Number(p.unitPrice)],
  ];
  for (const [k, v] of optional) if (v != null && v !== '') out[k] = v;
  return out;
}

/** The label of a product in a picker: HS code, description. */
export const productLabel = (p: ProductRecord) =>
  `${p.hsCode} ${p.descriptionCn}${p.descriptionEn ? ` / ${p.descriptionEn}` : ''}`;
