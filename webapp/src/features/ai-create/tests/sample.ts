// A proposal as POST /api/v1/ai-drafts answers it, for the screen's tests.
import type { AiDraft } from '../model/types';

export function sampleDraft(): AiDraft {
  return {
    id: 'draft-1',
    version: 1,
    position: 10,
    customerId: 'cust-1',
    declarationType: 'IC',
    fields: {
      trackingNumber: {
        value: '1Z999AA10123456784',
        source: 'document',
        location: 'invoice.pdf p.1 line 3',
        confidence: 0.9,
      },
      grossWeight: {
        value: 12.5,
        source: 'document',
        location: 'invoice.pdf p.1 line 14',
        confidence: 0.9,
      },
      contractNo: {
        value: 'INV-2026-0815',
        source: 'document',
        location: 'invoice.pdf p.1 line 2',
        confidence: 0.55,
      },
    },
    goods: [
      {
        goodsName: {
          value: 'Bluetooth headphones',
          source: 'document',
          location: 'invoice.pdf p.1 line 10',
          confidence: 0.95,
        },
        goodsCode: {
          value: '8518300000',
          source: 'productLibrary',
          location: 'invoice.pdf p.1 line 10',
          confidence: 0.7,
        },
      },
    ],
    warnings: ['declarationGoodsInfo[0].unitPrice: quantity x price is not the amount'],
    class: {
      class: 'C',
      reasonZh: '货值 440.00 USD，不超过 5000 元人民币',
      reasonEn: 'value 440.00 USD at most CNY 5,000, no licence named',
    },
    documents: [
      {
        name: 'invoice.pdf',
        kind: 'pdf',
        size: 2048,
        pages: 1,
        lines: [
          { page: 1, line: 1, text: 'COMMERCIAL INVOICE' },
          { page: 1, line: 2, text: 'Invoice No.: INV-2026-0815' },
          { page: 1, line: 3, text: 'AWB No.: 1Z999AA10123456784' },
          { page: 1, line: 10, text: 'Bluetooth headphones 8518300000 20 PCS' },
          { page: 1, line: 14, text: 'Gross Weight: 12.5 KG' },
        ],
      },
    ],
    form: {
      trackingNumber: '1Z999AA10123456784',
      grossWeight: 12.5,
      contractNo: 'INV-2026-0815',
      currencyCode: 'USD',
      declarationGoodsInfo: [
        { goodsName: 'Bluetooth headphones', goodsCode: '8518300000', goodsQuantity: 20 },
      ],
    },
    declarationId: null,
  };
}
