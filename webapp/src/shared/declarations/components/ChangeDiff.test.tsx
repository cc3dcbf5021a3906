import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import { groupChanges } from '@/shared/declarations/model/history';
import { HistoryTimeline } from './HistoryTimeline';

afterEach(async () => {
  await i18n.changeLanguage('zh');
});

const changes = [
  { field: 'declarationGoodsInfo[1].goodsQuantity', old: 2, new: 3 },
  { field: 'note', old: null, new: 'fragile' },
  { field: 'declarationGoodsInfo[1].goodsCode', old: '8517130000', new: '8517623600' },
  { field: 'declarationGoodsInfo[3]', old: null, new: { goodsName: 'Cable', goodsUnit: '' } },
  { field: 'declarationGoodsInfo[0]', old: { goodsName: 'Charger' }, new: null },
  { field: 'products[0].productName', old: 'A', new: 'B' },
];

describe('groupChanges', () => {
  it('groups an edit by line: changed fields, added and removed lines, in line order', () => {
    const g = groupChanges(changes);
    expect(g.fields.map((c) => c.field)).toEqual(['note']);
    expect(g.lines).toEqual([
      {
        group: 'declarationGoodsInfo',
        index: 0,
        kind: 'removed',
        fields: [{ sub: 'goodsName', old: 'Charger', new: null }],
      },
      {
        group: 'declarationGoodsInfo',
        index: 1,
        kind: 'changed',
        fields: [
          { sub: 'goodsQuantity', old: 2, new: 3 },
          { sub: 'goodsCode', old: '8517130000', new: '8517623600' },
        ],
      },
      {
        group: 'declarationGoodsInfo',
        index: 3,
        kind: 'added',
        fields: [{ sub: 'goodsName', old: null, new: 'Cable' }],
      },
      {
        group: 'products',
        index: 0,
        kind: 'changed',
        fields: [{ sub: 'productName', old: 'A', new: 'B' }],
      },
    ]);
  });

  it('reads a whole line replaced as the fields that differ', () => {
    const g = groupChanges([
      {
        field: 'declarationGoodsInfo[0]',
        old: { goodsName: 'A', goodsCode: '1' },
        new: { goodsName: 'A', goodsCode: '2' },
      },
    ]);
    expect(g.lines[0]).toMatchObject({
      kind: 'changed',
      fields: [{ sub: 'goodsCode', old: '1', new: '2' }],
    });
  });
});

describe('the history timeline', () => {
  it('shows an edit per goods line with the field labels in Chinese', async () => {
    await i18n.changeLanguage('zh');
    const { container } = renderWithProviders(
      <HistoryTimeline
        entries={[
          {
            version: 2,
            position: 7,
            at: '2026-11-22T12:40:00+08:00',
            actor: { id: 'u', name: 'acme', role: 'CUSTOMER' },
            eventType: 'DeclarationEdited',
            action: 'edit',
            fromStatus: 0,
            toStatus: 0,
            reason: null,
            changes,
          },
        ]}
      />,
    );
    expect(await screen.findByText('修改了 6 个字段')).toBeInTheDocument();
    const changed = container.querySelector('[data-line="declarationGoodsInfo[1]"]') as HTMLElement;
    expect(changed).toHaveTextContent('第 2 项商品');
    expect(changed).toHaveTextContent('修改');
    expect(changed.querySelector('[data-line-field="goodsCode"]')).toHaveTextContent(
      /商品编号（HS）\s*8517130000\s*8517623600/,
    );
    expect(container.querySelector('[data-line="declarationGoodsInfo[0]"]')).toHaveTextContent(
      /第 1 项商品\s*删除.*Charger/,
    );
    expect(container.querySelector('[data-line="declarationGoodsInfo[3]"]')).toHaveTextContent(
      /第 4 项商品\s*新增.*Cable/,
    );
    // Five items (a field or a whole line each): all shown, no "more" toggle.
    expect(container.querySelector('[data-line="products[0]"]')).toHaveTextContent(
      '第 1 项商品信息（运单）',
    );
    expect(screen.queryByRole('button', { name: /^\+/ })).toBeNull();
  });
});
