import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { PreviewTable } from '../components/SchemeEditor';
import type { MappingPreview } from '@/shared/master-data/api/types';

const preview: MappingPreview = {
  sheet: 'Sheet1',
  sheetRows: 3,
  sheetColumns: 3,
  headers: ['Waybill', 'Qty', 'Unit'],
  columns: [
    { field: 'trackingNumber', column: 1, foundBy: 'header' },
    { field: 'declarationGoodsInfo.goodsQuantity', column: 2, foundBy: 'alias' },
    { field: 'declarationGoodsInfo.goodsCode', column: null, foundBy: null },
  ],
  missing: ['declarationGoodsInfo.goodsCode'],
  rows: [
    {
      row: 2,
      declarationType: 'OC',
      cells: [
        {
          field: 'trackingNumber',
          column: 1,
          raw: '1Z1',
          value: '1Z1',
          translated: false,
          defaulted: false,
          problem: null,
        },
        {
          field: 'declarationGoodsInfo.goodsQuantity',
          column: 2,
          raw: 'two',
          value: null,
          translated: false,
          defaulted: false,
          problem: 'declarationGoodsInfo.goodsQuantity: "two" is not a number',
        },
      ],
      problems: [
        {
          field: 'declarationGoodsInfo.goodsQuantity',
          column: 2,
          rule: 'number',
          message: 'declarationGoodsInfo.goodsQuantity: "two" is not a number',
        },
      ],
    },
    {
      row: 3,
      declarationType: 'OC',
      cells: [
        {
          field: 'trackingNumber',
          column: 1,
          raw: '1Z2',
          value: '1Z2',
          translated: false,
          defaulted: false,
          problem: null,
        },
        {
          field: 'declarationGoodsInfo.goodsQuantity',
          column: 2,
          raw: '3',
          value: '3',
          translated: false,
          defaulted: false,
          problem: null,
        },
      ],
      problems: [],
    },
  ],
};

describe('PreviewTable', () => {
  it('shows each row as mapped, each cell with its problem, and the missing columns', () => {
    renderWithProviders(<PreviewTable preview={preview} />);
    expect(screen.getByText('1Z1')).toBeInTheDocument();
    expect(screen.getByText('1Z2')).toBeInTheDocument();
    expect(
      screen.getByText('declarationGoodsInfo.goodsQuantity: "two" is not a number'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/: declarationGoodsInfo\.goodsQuantity: "two" is not a number$/),
    ).toBeInTheDocument();
    expect(screen.getByText(/无问题|No problems/)).toBeInTheDocument();
    expect(screen.getByText(/未找到的列|Columns not found/)).toHaveTextContent(
      'declarationGoodsInfo.goodsCode',
    );
  });
});
