// Before declaring, staff see the stored declaration checked by the declaring rules.
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import type { Declaration } from '@/shared/declarations/model/types';
import { DataIssuesPanel } from '../components/DataIssuesPanel';

let answer: unknown;
let sent: Record<string, unknown> | null = null;

beforeEach(() => {
  sent = null;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const body = input instanceof Request ? await input.text() : String(init?.body ?? '');
      sent = body ? (JSON.parse(body) as Record<string, unknown>) : null;
      return new Response(
        JSON.stringify({ code: 200, message: 'ok', data: answer, refreshed: false }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    }),
  );
});

afterEach(() => vi.unstubAllGlobals());

const declaration = {
  id: 'd-1',
  version: 3,
  declarationType: 'OC',
  declarationClass: 'C',
  shipmentType: 1,
  status: 1,
  draftStatus: 1,
  customerId: 'c-1',
  username: 'acme',
  createdAt: '2026-11-29T10:00:00+08:00',
  updatedAt: '2026-11-29T10:00:00+08:00',
  trackingNumber: '1Z999AA10123456784',
  currencyCode: 'CNY',
  declarationGoodsInfo: [{ goodsNo: 1, goodsName: 'T-shirt', currency: 'USD' }],
} as unknown as Declaration;

const check = (problems: object[], warnings: object[]) => ({
  declarationType: 'OC',
  valid: problems.length === 0,
  draftValid: true,
  judgedOn: '2026-11-29',
  problems,
  warnings,
  class: {
    declared: 'C',
    proposed: null,
    agrees: true,
    reasonZh: null,
    reasonEn: null,
    valueCny: null,
  },
});

describe('the data issues panel', () => {
  it('lists the problems and the warnings by their labels, sending the stored form for the customer', async () => {
    answer = check(
      [{ field: 'shipperName', rule: 'required', message: '发货人：不能为空', blocksDraft: false }],
      [
        {
          field: 'declarationGoodsInfo[0].currency',
          rule: 'currency_mismatch',
          message: '商品 1 · 币制：与表头币制 CNY 不同',
          blocksDraft: false,
        },
      ],
    );
    renderWithProviders(<DataIssuesPanel declaration={declaration} />);
    expect(await screen.findByText('发货人：不能为空')).toBeInTheDocument();
    expect(screen.getByText('商品 1 · 币制：与表头币制 CNY 不同')).toBeInTheDocument();
    expect(screen.getByText('申报时会遇到的问题（1）')).toBeInTheDocument();
    expect(sent).toMatchObject({
      declarationType: 'OC',
      customerId: 'c-1',
      trackingNumber: '1Z999AA10123456784',
    });
    expect(sent).not.toHaveProperty('status');
  });

  it('says when there is nothing to fix', async () => {
    answer = check([], []);
    renderWithProviders(<DataIssuesPanel declaration={declaration} />);
    expect(await screen.findByText('没有数据问题：报关单符合申报规则。')).toBeInTheDocument();
  });
});
