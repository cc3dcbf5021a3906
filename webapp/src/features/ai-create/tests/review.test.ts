import { describe, expect, it } from 'vitest';
import {
  acceptAll,
  citedLines,
  confidenceColor,
  confidencePercent,
  editedValue,
  initialReview,
  lineKey,
  parseLocation,
  proposedFields,
  reviewCounts,
  reviewedForm,
} from '../model/review';
import { sampleDraft } from './sample';

describe('proposedFields', () => {
  it('lists header fields, then each goods line under its path', () => {
    const fields = proposedFields(sampleDraft());
    expect(fields.map((f) => f.path)).toEqual([
      'trackingNumber',
      'grossWeight',
      'contractNo',
      'declarationGoodsInfo[0].goodsName',
      'declarationGoodsInfo[0].goodsCode',
    ]);
    expect(fields[3]).toMatchObject({ name: 'goodsName', line: 0 });
  });
});

describe('locations and confidence', () => {
  it('parses a document location and nothing else', () => {
    expect(parseLocation('invoice.pdf p.1 line 13')).toEqual({
      document: 'invoice.pdf',
      page: 1,
      line: 13,
    });
    expect(parseLocation('my invoice.pdf p.2 line 3')?.document).toBe('my invoice.pdf');
    expect(parseLocation('')).toBeNull();
    expect(parseLocation('product 42')).toBeNull();
  });

  it('maps each cited line to the fields read from it', () => {
    const cited = citedLines(proposedFields(sampleDraft()));
    expect(cited.get(lineKey('invoice.pdf', 1, 10))).toEqual([
      'declarationGoodsInfo[0].goodsName',
      'declarationGoodsInfo[0].goodsCode',
    ]);
    expect(cited.size).toBe(4);
  });

  it('colours by confidence band', () => {
    expect(confidenceColor(0.97)).toBe('green');
    expect(confidenceColor(0.85)).toBe('green');
    expect(confidenceColor(0.84)).toBe('yellow');
    expect(confidenceColor(0.6)).toBe('yellow');
    expect(confidenceColor(0.59)).toBe('red');
    expect(confidencePercent(0.725)).toBe('73%');
    expect(confidencePercent(1.4)).toBe('100%');
  });
});

describe('the reviewed form', () => {
  it('keeps pending and accepted values, replaces edits and empties rejections', () => {
    const draft = sampleDraft();
    const fields = proposedFields(draft);
    let review = initialReview(fields);
    expect(reviewCounts(review)).toEqual({ pending: 5, accepted: 0, edited: 0, rejected: 0 });
    review = {
      ...review,
      grossWeight: { decision: 'edited', edited: '13.1' },
      contractNo: { decision: 'rejected', edited: '' },
      'declarationGoodsInfo[0].goodsName': { decision: 'edited', edited: ' Wireless earbuds ' },
    };
    review = acceptAll(review);
    expect(reviewCounts(review)).toEqual({ pending: 0, accepted: 2, edited: 2, rejected: 1 });
    const form = reviewedForm(draft, fields, review);
    expect(form.grossWeight).toBe(13.1);
    expect(form.contractNo).toBeNull();
    expect(form.trackingNumber).toBe('1Z999AA10123456784');
    expect(form.currencyCode).toBe('USD');
    expect(form.declarationGoodsInfo).toEqual([
      { goodsName: 'Wireless earbuds', goodsCode: '8518300000', goodsQuantity: 20 },
    ]);
    // The proposal itself is untouched.
    expect(draft.form.grossWeight).toBe(12.5);
    expect((draft.form.declarationGoodsInfo as { goodsName: string }[])[0].goodsName).toBe(
      'Bluetooth headphones',
    );
  });

  it('reads an edit as a number only where a number was proposed', () => {
    expect(editedValue(12.5, '1,234.5')).toBe(1234.5);
    expect(editedValue(12.5, 'abc')).toBe('abc');
    expect(editedValue('INV-1', '42')).toBe('42');
    expect(editedValue('INV-1', '   ')).toBeNull();
  });
});
