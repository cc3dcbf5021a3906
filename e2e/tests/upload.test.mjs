// The bulk upload of issue 13 in a real browser: a customer uploads a fixed-template file
// with 3 good rows, 1 duplicate (its tracking number exists already) and 1 abnormal row;
// sees the completion banner 3 / 1 / 1; the unread badge shows 1; opens the result dialog
// (both tabs), downloads the error file, and the badge goes to 0 as the record is opened.
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import { api, eventually, fullCExport, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { RESULTS_DIR, uniqueTrackingNumber } from '../lib/config.mjs';
import { login, screenshot, visible } from '../lib/ui.mjs';

const { withPage } = useBrowser();

/** The create body as fixed-template rows (one goods line each): wire name -> value. */
function rowOf(trackingNumber) {
  const { declarationGoodsInfo, declarationType: _type, ...header } = fullCExport(trackingNumber);
  return { ...header, ...declarationGoodsInfo[0] };
}

/** A fixed-template workbook: each header carries its wire name in brackets. */
async function fixedTemplateFile(rows) {
  const wires = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('data');
  sheet.addRow(wires.map((w) => `${w} (${w})`));
  for (const r of rows) sheet.addRow(wires.map((w) => (r[w] === undefined ? null : String(r[w]))));
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function unread(token) {
  return (await api('GET', '/api/v1/upload/query/log/un/confirm/num', { token })).data;
}

describe('bulk upload', () => {
  test('a customer uploads 3 good, 1 duplicate and 1 abnormal row and reads the result', testOptions(), (t) =>
    withPage(t, async (page) => {
      const token = await tokenFor('acme');
      // Earlier results of the company are read first, so the badge starts at 0.
      const earlier = await api('GET', '/api/v1/upload/query/log/history', {
        token,
        query: { pageNo: 1, pageSize: 100, confirm: 'false' },
      });
      for (const r of earlier.data.records ?? []) {
        await api('PUT', `/api/v1/upload/confirm/${r.id}`, { token });
      }
      await eventually(() => unread(token), (n) => n === 0, { what: 'no unread upload' });

      const duplicate = uniqueTrackingNumber('E2EUD');
      await api('POST', '/api/v1/declarations', { token, body: fullCExport(duplicate) });
      await eventually(
        () => api('GET', '/api/v1/declarations', { token, query: { trackingNumber: duplicate } }),
        (r) => (r.data.total ?? r.data.records?.length ?? 0) > 0,
        { what: 'the existing declaration listed' },
      );
      const good = [1, 2, 3].map(() => uniqueTrackingNumber('E2EUG'));
      const abnormal = { ...rowOf(uniqueTrackingNumber('E2EUB')), goodsQuantity: 'many' };
      const file = await fixedTemplateFile([...good.map(rowOf), rowOf(duplicate), abnormal]);

      await login(page, 'acme', { t });
      await visible(page.getByRole('button', { name: 'Batch upload' })).first().click();
      const dialog = visible(page.getByRole('dialog', { name: 'Batch upload' }));
      await dialog.waitFor();
      await page.locator('input[type="file"]').setInputFiles({
        name: 'e2e-upload.xlsx',
        mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        buffer: file,
      });
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

      const banner = visible(page.getByRole('status').filter({ hasText: 'Upload complete' }));
      await banner.waitFor({ timeout: 60_000 });
      await visible(
        banner.getByText(
          '5 rows processed: 3 draft declaration(s) made from 3 rows, 1 repeated, 1 abnormal',
          { exact: true },
        ),
      ).waitFor();
      // The drafts made are one click away, to be submitted.
      await visible(banner.getByRole('link', { name: 'Open the drafts to submit them' })).waitFor();
      const history = visible(page.getByRole('button', { name: 'Batch creation records' })).first();
      const badge = page.locator('.mantine-Indicator-root', { has: history }).locator('.mantine-Indicator-indicator');
      await eventually(() => unread(token), (n) => n === 1, { what: 'one unread upload' });
      await visible(badge.filter({ hasText: /^1$/ })).waitFor();
      await screenshot(page, 'upload-banner');

      await banner.getByRole('button', { name: 'View result' }).click();
      const result = visible(page.getByRole('dialog', { name: 'Upload result' }));
      await result.waitFor();
      await visible(result.getByText('e2e-upload.xlsx')).waitFor();
      await visible(result.getByRole('tab', { name: 'Abnormal data (1)' })).waitFor();
      await visible(result.getByText(abnormal.trackingNumber)).first().waitFor();
      await result.getByRole('tab', { name: 'Duplicate upload data (1)' }).click();
      await visible(result.getByText(duplicate)).first().waitFor();
      await screenshot(page, 'upload-result');

      // Opening the record marks it read: the badge goes from 1 to 0 (hidden).
      await eventually(() => unread(token), (n) => n === 0, { what: 'the record read' });
      await eventually(() => visible(badge).count(), (n) => n === 0, { what: 'the badge hidden at 0' });

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        result.getByRole('button', { name: 'Download error report' }).click(),
      ]);
      await mkdir(RESULTS_DIR, { recursive: true });
      const saved = path.join(RESULTS_DIR, 'upload-errors.xlsx');
      await download.saveAs(saved);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(await readFile(saved));
      const text = [];
      book.worksheets[0].eachRow((row) => text.push(row.values.slice(1).map(String).join(' | ')));
      assert.ok(text.some((l) => l.includes(duplicate)), `the duplicate row listed: ${text.join('\n')}`);
      assert.ok(
        // Named as the form labels it, with what was typed.
        text.some((l) => l.includes(abnormal.trackingNumber) && l.includes("Goods line 1 · Quantity: must be a number, got 'many'")),
        `the abnormal row with its problem: ${text.join('\n')}`,
      );
      assert.equal(text.length, 3, `a header and two rows: ${text.join('\n')}`);
    }),
  );
});
