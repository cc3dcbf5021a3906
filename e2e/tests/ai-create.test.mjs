// Issue 14 in a real browser: staff drop an invoice PDF (written here, a text PDF in
// Helvetica) on /customers-profile/ai-create for the demo customer, review the proposal
// (each field with its source and confidence), correct the gross weight, accept the rest and
// save; the new declaration's history shows which fields were proposed, from where, and the
// correction.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventually, getHistory } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { field, login, pickOption, screenshot, visible } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const TRACKING = uniqueTrackingNumber('AI');
const INVOICE_NO = `INV-${TRACKING.slice(-6)}`;

/** Lines of an English commercial invoice: [x, text] per run, one entry per line. */
function invoiceLines() {
  const cols = [50, 210, 290, 340, 385, 445, 515];
  return [
    [[200, 'COMMERCIAL INVOICE']],
    [[50, `Invoice No.: ${INVOICE_NO}`], [330, 'Date: 2026-08-15']],
    [[50, `AWB No.: ${TRACKING}`]],
    [[50, 'Shipper: Pacific Gadgets Inc.']],
    [[50, 'Consignee: Shenzhen Example Tech Co., Ltd.']],
    [[50, 'Currency: USD']],
    [],
    ['Description', 'HS Code', 'Qty', 'Unit', 'Unit Price', 'Amount', 'Origin'].map((h, i) => [cols[i], h]),
    ['Bluetooth headphones', '8518300000', '20', 'PCS', '15.50', '310.00', 'USA'].map((v, i) => [cols[i], v]),
    ['Cotton T-shirts', '6109100000', '40', 'PCS', '3.25', '130.00', 'Viet Nam'].map((v, i) => [cols[i], v]),
    [[cols[0], 'Total'], [cols[5], '440.00']],
    [],
    [[50, 'Gross Weight: 12.5 KG']],
    [[50, 'Net Weight: 10.2 KG']],
    [[50, 'Packages: 3']],
  ];
}

/** A one-page text PDF (A4, Helvetica) of `lines`, with a correct cross-reference table. */
function invoicePdf(lines) {
  const esc = (s) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
  let content = '';
  let y = 800;
  for (const line of lines) {
    for (const [x, text] of line) content += `BT /F1 10 Tf ${x.toFixed(1)} ${y.toFixed(1)} Td (${esc(text)}) Tj ET\n`;
    y -= 18;
  }
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

describe('AI-assisted declaration creation', () => {
  test('staff drop an invoice PDF, correct one field, save; the history shows the provenance', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'operator', { t });
      await page.goto('/customers-profile/ai-create');
      await visible(page.getByRole('heading', { name: 'AI create declaration' })).waitFor();

      await pickOption(page, field(page, 'Customer'), 'acme', /acme/);
      await page.locator('input[type=file]').setInputFiles({
        name: 'invoice.pdf',
        mimeType: 'application/pdf',
        buffer: invoicePdf(invoiceLines()),
      });
      await visible(page.getByText('invoice.pdf', { exact: true })).waitFor();
      await visible(page.getByRole('button', { name: 'Read and propose' })).click();

      // The review: the document's lines beside the fields, each with source and confidence.
      await visible(page.getByRole('heading', { name: 'Review the proposal' })).waitFor();
      await visible(page.getByText(`AWB No.: ${TRACKING}`)).first().waitFor();
      const tracking = page.locator('[data-field="trackingNumber"]');
      await visible(tracking.getByText(TRACKING, { exact: true })).waitFor();
      await visible(tracking.getByText('Document', { exact: true })).waitFor();
      await visible(tracking.getByText('invoice.pdf page 1 line 3', { exact: true })).waitFor();
      const gross = page.locator('[data-field="grossWeight"]');
      await visible(gross.getByText('12.5', { exact: true })).waitFor();
      await visible(gross.getByText(/^\d+%$/)).waitFor();
      await visible(page.locator('[data-field="declarationGoodsInfo[1].goodsName"]').getByText('Cotton T-shirts')).waitFor();
      await visible(page.getByText(/^Proposed class: [BCD]$/)).waitFor();
      await screenshot(page, 'ai-create-review');

      // Correct the gross weight, accept everything else, save.
      await gross.getByRole('button', { name: /^Edit/ }).click();
      await gross.getByRole('textbox').fill('13.1');
      await visible(page.getByRole('button', { name: 'Accept all' })).click();
      await visible(page.getByText(/0 pending · \d+ accepted · 1 edited · 0 rejected/)).waitFor();
      await visible(page.getByRole('button', { name: 'Save as draft' })).click();

      await page.waitForURL((u) => new URL(u).pathname === '/customs-clearance/detail-c/0');
      const id = new URL(page.url()).searchParams.get('id');
      assert.ok(id, 'the new declaration is opened');

      // The history as the server records it.
      const history = await eventually(() => getHistory('operator', id), (h) => Array.isArray(h) && h.length > 0, {
        what: 'the declaration history',
      });
      const changes = history[0].changes ?? [];
      const of = (f) => changes.find((c) => c.field === f);
      assert.equal(of('grossWeight')?.decision, 'changed');
      assert.equal(of('grossWeight')?.source, 'document');
      assert.equal(Number(of('grossWeight')?.old), 12.5);
      assert.equal(Number(of('grossWeight')?.new), 13.1);
      assert.equal(of('trackingNumber')?.decision, 'accepted');
      assert.equal(of('trackingNumber')?.location, 'invoice.pdf p.1 line 3');
      assert.equal(of('declarationGoodsInfo[0].goodsName')?.new, 'Bluetooth headphones');

      // And as the page shows it: the correction first, with its source and confidence.
      const section = page.getByRole('region', { name: 'History' });
      await visible(section.getByText(/field\(s\) proposed from documents, reviewed/)).waitFor();
      const row = section.locator('[data-provenance="grossWeight"]');
      await visible(row.getByText('changed', { exact: true })).waitFor();
      await visible(row.getByText('13.1', { exact: true })).waitFor();
      await visible(row.getByText(/proposed by document \(invoice\.pdf p\.1 line \d+\), confidence \d+%/)).waitFor();
      // The accepted fields follow behind the "+N" of the rest.
      await visible(section.getByRole('button', { name: /^\+\d+$/ })).click();
      const tracked = section.locator('[data-provenance="trackingNumber"]');
      await visible(tracked.getByText('accepted', { exact: true })).waitFor();
      await screenshot(page, 'ai-create-history');
    }),
  );
});
