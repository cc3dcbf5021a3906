import { useDeclT } from '@/shared/declarations/i18n';
import { parseChangePath } from '@/shared/declarations/model/history';

/** A history change path (`declarationGoodsInfo[2].goodsCode`) as a readable label. */
export function useChangeLabel() {
  const { t } = useDeclT();
  return (path: string) => {
    const p = parseChangePath(path);
    if (p.field === 'declarationGoodsInfo' && p.index !== undefined) {
      const line = `${t('group.goods')} ${p.index + 1}`;
      return p.sub ? `${line} · ${t(`goods.${p.sub}`, { defaultValue: p.sub })}` : line;
    }
    if (p.field === 'products' && p.index !== undefined) {
      const line = `${t('group.products')} ${p.index + 1}`;
      return p.sub ? `${line} · ${t(`product.${p.sub}`, { defaultValue: p.sub })}` : line;
    }
    return t(`field.${p.field}`, { defaultValue: p.field });
  };
}
