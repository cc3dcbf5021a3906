import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import i18n from '@/lib/i18n';
import { renderWithProviders } from '@/test/render';
import { HistoryTimeline } from '@/shared/declarations/components/HistoryTimeline';
import type { HistoryEntry } from '@/shared/declarations/model/types';

const created: HistoryEntry = {
  version: 1,
  position: 12,
  at: '2026-11-25T12:03:00+08:00',
  actor: { id: 'u-1', name: 'operator', role: 'OPERATOR' },
  eventType: 'DeclarationDrafted',
  action: 'create',
  fromStatus: null,
  toStatus: 0,
  reason: null,
  changes: [
    ...['trackingNumber', 'currencyCode', 'netWeight', 'packageQuantity', 'consignorCompanyEn'].map(
      (field) => ({
        field,
        old: 'x',
        new: 'x',
        source: 'document',
        location: 'invoice.pdf p.1 line 3',
        confidence: 0.9,
        decision: 'accepted' as const,
      }),
    ),
    {
      field: 'contractNo',
      old: 'INV-1',
      new: null,
      source: 'document',
      location: 'invoice.pdf p.1 line 2',
      confidence: 0.72,
      decision: 'rejected',
    },
    {
      field: 'grossWeight',
      old: 12.5,
      new: 13.1,
      source: 'document',
      location: 'invoice.pdf p.1 line 11',
      confidence: 0.9,
      decision: 'changed',
    },
    {
      field: 'declarationGoodsInfo[0].goodsCode',
      old: '8518300000',
      new: '8518300000',
      source: 'productLibrary',
      location: '',
      confidence: 0.8,
      decision: 'accepted',
    },
  ],
};

beforeEach(async () => {
  await i18n.changeLanguage('en');
});

describe('the history of a declaration made from documents', () => {
  it('shows each proposed field with its source, confidence and decision, corrections first', () => {
    renderWithProviders(<HistoryTimeline entries={[created]} />);
    expect(screen.getByText('8 field(s) proposed from documents, reviewed')).toBeInTheDocument();
    const items = document.querySelectorAll('[data-provenance]');
    // Five shown: the correction, the rejection, then accepted ones.
    expect([...items].map((e) => e.getAttribute('data-provenance'))).toEqual([
      'grossWeight',
      'contractNo',
      'trackingNumber',
      'currencyCode',
      'netWeight',
    ]);
    const gross = items[0] as HTMLElement;
    expect(gross).toHaveTextContent('12.5');
    expect(gross).toHaveTextContent('changed');
    expect(gross).toHaveTextContent('13.1');
    expect(gross).toHaveTextContent(
      'proposed by document (invoice.pdf p.1 line 11), confidence 90%',
    );
    expect(items[1]).toHaveTextContent('rejected');
    fireEvent.click(screen.getByRole('button', { name: '+3' }));
    const code = document.querySelector(
      '[data-provenance="declarationGoodsInfo[0].goodsCode"]',
    ) as HTMLElement;
    expect(code).toHaveTextContent('accepted');
    expect(code).toHaveTextContent('proposed by product library, confidence 80%');
  });

  it('reads in Chinese', async () => {
    await i18n.changeLanguage('zh');
    renderWithProviders(<HistoryTimeline entries={[created]} />);
    expect(screen.getByText('由文件建议并经审核的字段 8 个')).toBeInTheDocument();
    expect(document.querySelector('[data-provenance="grossWeight"]')).toHaveTextContent(
      '来源：文件 (invoice.pdf p.1 line 11)，置信度 90%',
    );
  });
});
