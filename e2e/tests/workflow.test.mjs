// The declaration workflow of issue 3 in a real browser, one step per test, in order:
//   (a) a customer drafts a class C export, hits a validation error on submit, fixes it and
//       submits it (status 1 unprocessed);
//   (b) an operator reviews and completes it (status 3);
//   (c) the customer sees "completed" in the list and the history timeline on the detail page;
//   (d) the admin exports a report from the sidebar dialog; the xlsx holds the right rows.
// Each step after (a) falls back to a declaration made through the API when an earlier step
// failed, so one failure does not hide the others.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import ExcelJS from 'exceljs';
import {
  act,
  createSubmittedCExport,
  eventually,
  findByTrackingNumber,
  getDeclaration,
  getHistory,
  listDeclarations,
} from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { RESULTS_DIR, uniqueTrackingNumber } from '../lib/config.mjs';
import { field, login, pathname, pickOption, screenshot, settle, todayYmd, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const CUSTOMER_LIST = '/customs-clearance-supply/export/export-c';
const STAFF_LIST = '/customs-clearance/export/export-c';

/** What the steps share. */
const run = {
  tracking: uniqueTrackingNumber('E2EC'),
  /** The declaration's id once (a) created it in the UI. */
  id: null,
  /** The step that reached status 3 through the UI (b), or null. */
  completedInUi: false,
};

/** The declaration for the steps after (a): the UI's, else one made through the API. */
async function declarationAtLeast(status) {
  if (run.id) {
    const d = await getDeclaration('acme', run.id);
    if (d.status === status || (status === 1 && d.status === 1)) return { id: run.id, tracking: run.tracking };
    if (status === 3 && d.status === 3) return { id: run.id, tracking: run.tracking };
  }
  const tracking = uniqueTrackingNumber('E2EF');
  const { id } = await createSubmittedCExport('acme', tracking);
  if (status === 3) await act('operator', id, ['review', 'complete']);
  await eventually(() => getDeclaration('acme', id), (d) => d.status === status, { what: `status ${status}` });
  return { id, tracking, fallback: true };
}

describe('declaration workflow', () => {
  test('(a) a customer drafts a C-class export, fixes a validation error and submits it', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'acme', { t });
      await page.goto(CUSTOMER_LIST);
      await visible(page.getByRole('button', { name: 'New declaration' })).click();
      await waitForPath(page, '/customs-clearance-supply/detail-c/1');
      await visible(page.getByRole('heading', { name: /New Export class C declaration/ })).waitFor();

      await field(page, 'Tracking number').fill(run.tracking);
      await field(page, 'Shipper').fill('Li Lei');
      await field(page, 'Shipper company').fill('ACME Trading');
      await field(page, 'Shipper address').fill('88 Century Avenue, Pudong, Shanghai');
      await field(page, 'Recipient').fill('John Smith');
      await field(page, 'Recipient address').fill('1 Main Street, Louisville, KY, USA');
      // The mistake: net weight above gross weight.
      await field(page, 'Parcel gross weight (kg)').fill('2');
      await field(page, 'Parcel net weight (kg)').fill('3');

      // The new form starts with one empty goods line.
      await field(page, 'HS code 1').fill('6109100000');
      await field(page, 'Goods name 1').fill('Cotton knitted T-shirts');
      await field(page, 'Quantity 1').fill('20');
      await pickOption(page, field(page, 'Unit 1'), '011', /^011/);
      await field(page, 'Total 1').fill('170');

      await visible(page.getByRole('button', { name: 'Save and submit' })).click();

      // The error is shown on the field and summed up at the bottom; nothing was sent.
      await visible(page.getByText('Net weight must not exceed gross weight')).first().waitFor();
      await visible(page.getByRole('alert').filter({ hasText: 'problem(s) to fix' })).first().waitFor();
      assert.match(pathname(page), /^\/customs-clearance-supply\/detail-c\/1$/);
      await field(page, 'Parcel net weight (kg)').scrollIntoViewIfNeeded();
      await screenshot(page, 'form-validation-error');
      assert.equal(await findByTrackingNumber('acme', run.tracking), null, 'an invalid declaration was not submitted');

      // Fix it and submit again.
      await field(page, 'Parcel net weight (kg)').fill('1.5');
      await visible(page.getByRole('button', { name: 'Save and submit' })).click();

      // Submitted: the detail page of the new declaration, status 1 unprocessed.
      await page.waitForURL((u) => {
        const url = new URL(u);
        return url.pathname === '/customs-clearance-supply/detail-c/1' && url.searchParams.has('id') && !url.searchParams.has('edit');
      });
      run.id = new URL(page.url()).searchParams.get('id');
      await visible(page.getByRole('heading', { name: new RegExp(run.tracking) })).waitFor();
      await visible(page.getByText('Unprocessed', { exact: true })).first().waitFor();

      const d = await eventually(() => getDeclaration('acme', run.id), (x) => x.status === 1, { what: 'status 1' });
      assert.equal(d.trackingNumber, run.tracking);
      assert.equal(d.declarationType, 'OC');
      assert.equal(d.packageNetWeight, 1.5);
      assert.equal(d.declarationGoodsInfo.length, 1);
      assert.equal(d.declarationGoodsInfo[0].goodsCode, '6109100000');
    }),
  );

  test('(b) the operator reviews and completes it in the UI', testOptions(), (t) =>
    withPage(t, async (page) => {
      const target = await declarationAtLeast(1);
      if (target.fallback) t.diagnostic(`(a) did not leave a declaration: using ${target.tracking} made through the API`);
      await login(page, 'operator', { t });
      await page.goto(`${STAFF_LIST}?trackingNumber=${encodeURIComponent(target.tracking)}`);
      await visible(page.getByRole('link', { name: target.tracking })).click();
      await waitForPath(page, '/customs-clearance/detail-c/1');
      assert.equal(new URL(page.url()).searchParams.get('id'), target.id);
      await visible(page.getByText('Unprocessed', { exact: true })).first().waitFor();

      // Review: a confirmation, then status 2.
      await visible(page.getByRole('button', { name: 'Review', exact: true })).click();
      const confirm = visible(page.getByRole('dialog'));
      await confirm.getByRole('button', { name: 'Review', exact: true }).click();
      await visible(page.getByText('Reviewed, not completed', { exact: true })).first().waitFor();

      // Complete: a dialog with the customs receipt code, then status 3.
      await visible(page.getByRole('button', { name: 'Complete', exact: true })).click();
      const dialog = visible(page.getByRole('dialog'));
      await pickOption(page, dialog.getByLabel('Customs receipt'), null, 'P released');
      await dialog.getByRole('button', { name: 'Complete', exact: true }).click();
      await visible(page.getByText('Completed', { exact: true })).first().waitFor();

      const d = await eventually(() => getDeclaration('operator', target.id), (x) => x.status === 3, { what: 'status 3' });
      assert.equal(d.declarationStatus, 'P');
      run.completedInUi = !target.fallback;
    }),
  );

  test('(c) the customer sees it completed in the list and the history timeline on the detail page', testOptions(), (t) =>
    withPage(t, async (page) => {
      const target = await declarationAtLeast(3);
      if (target.fallback) t.diagnostic(`earlier steps did not complete a declaration: using ${target.tracking} made through the API`);
      await login(page, 'acme', { t });

      // The list, newest first: ours is on the first page with its status badge.
      await page.goto(CUSTOMER_LIST);
      const row = visible(page.getByRole('row').filter({ has: page.getByRole('link', { name: target.tracking }) }));
      await row.first().waitFor();
      await row.first().getByText('Completed', { exact: true }).waitFor();
      await screenshot(page, 'declaration-list');

      // Filtered by the tracking number (the filter lives in the URL).
      await field(page, 'Tracking number').fill(target.tracking);
      await visible(page.getByRole('button', { name: 'Search' })).click();
      await page.waitForURL((u) => new URL(u).searchParams.get('trackingNumber') === target.tracking);
      await eventually(
        async () => (await visible(page.getByRole('link', { name: /^1Z/ })).allInnerTexts()).map((s) => s.trim()),
        (links) => links.length === 1 && links[0] === target.tracking,
        { what: 'the filtered list to show only our declaration' },
      );

      // With the customs channel on, the review also queued a message to customs: wait until
      // its sending is in the history, so the page and the API below count the same entries.
      if (process.env.CLEARWAY_CUSTOMS_DIR) {
        await eventually(
          async () => (await getHistory('acme', target.id)).map((e) => e.action),
          (actions) => actions.some((a) => a.startsWith('customs-')),
          { what: "the customs message in the declaration's history" },
        );
      }

      // The detail page with its timeline.
      await visible(page.getByRole('link', { name: target.tracking })).click();
      await waitForPath(page, '/customs-clearance-supply/detail-c/1');
      await visible(page.getByRole('heading', { name: new RegExp(target.tracking) })).waitFor();
      const history = visible(page.getByRole('region', { name: 'History' }));
      await history.waitFor();
      for (const text of ['Created', 'Submitted', 'Reviewed', 'Completed']) {
        await history.getByText(text, { exact: true }).first().waitFor();
      }
      await history.getByText(/acme \(Customer\)/).first().waitFor();
      await history.getByText(/operator \(Operator\)/).first().waitFor();
      const entries = await history.locator('.mantine-Timeline-item').count();
      const api = await getHistory('acme', target.id);
      // The channel's sending sits wherever the writer got to it (after the review).
      assert.deepEqual(
        api.map((e) => e.action).filter((a) => !a.startsWith('customs-')),
        ['create', 'submit', 'review', 'complete'],
        'the API history of a declaration made in one go',
      );
      assert.equal(entries, api.length, 'one timeline entry per history entry');
      await screenshot(page, 'declaration-detail');
      await mkdir(path.dirname(RESULTS_DIR), { recursive: true });
      await history.scrollIntoViewIfNeeded();
      await screenshot(page, 'declaration-history');
    }),
  );

  test('(d) the admin exports a report from the sidebar and the xlsx holds the right rows', testOptions(), (t) =>
    withPage(t, async (page) => {
      const target = await declarationAtLeast(3);
      if (target.fallback) t.diagnostic(`earlier steps did not complete a declaration: using ${target.tracking} made through the API`);
      const today = todayYmd();
      await login(page, 'admin', { t });

      await visible(page.getByRole('button', { name: 'Download report' })).click();
      const dialog = visible(page.getByRole('dialog', { name: 'Download report' }));
      await dialog.waitFor();
      await screenshot(page, 'export-dialog');

      // Class C, exports, every status and customer, created today.
      await dialog.locator('label').filter({ hasText: /^C · / }).click();
      await dialog.locator('label').filter({ hasText: /^Export$/ }).click();
      await field(dialog, 'Date range').click();
      const todayButton = visible(page.locator('button[data-today]')).first();
      await todayButton.click();
      await todayButton.click();

      const download = page.waitForEvent('download', { timeout: 60_000 });
      // The dialog shows any failure in an alert: fail at once with its message.
      const failure = dialog
        .getByRole('alert')
        .waitFor({ timeout: 60_000 })
        .then(async () => ({ failed: (await dialog.getByRole('alert').innerText()).replace(/\s+/g, ' ') }))
        .catch(() => new Promise(() => {}));
      await dialog.getByRole('button', { name: 'Download', exact: true }).click();
      const outcome = await Promise.race([download, failure]);
      if (outcome && 'failed' in outcome) {
        assert.fail(`the export failed in the browser; the dialog says: ${outcome.failed}`);
      }
      const file = outcome;
      await mkdir(RESULTS_DIR, { recursive: true });
      const saved = path.join(RESULTS_DIR, `export-${Date.now()}.xlsx`);
      await file.saveAs(saved);
      t.diagnostic(`downloaded ${file.suggestedFilename()} -> ${saved}`);
      assert.match(file.suggestedFilename(), /\.xlsx$/);
      // Success closes the dialog.
      await dialog.waitFor({ state: 'hidden' });

      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.readFile(saved);
      const sheet = workbook.worksheets[0];
      assert.ok(sheet, 'the workbook has a sheet');
      const rows = [];
      sheet.eachRow((r) => rows.push(r.values.slice(1).map((v) => (v && typeof v === 'object' && 'text' in v ? v.text : v))));
      const [header, ...data] = rows;
      t.diagnostic(`sheet "${sheet.name}": ${data.length} rows; columns: ${header.join(' | ')}`);
      const trackingColumn = header.findIndex((h) => /tracking|运单|单号/i.test(String(h)));
      assert.ok(trackingColumn >= 0, `a tracking number column in ${JSON.stringify(header)}`);
      const trackings = data.map((r) => String(r[trackingColumn] ?? ''));
      assert.ok(trackings.includes(target.tracking), `${target.tracking} is in the report`);

      // As many rows as the list endpoint counts for the same filter.
      const expected = await listDeclarations('admin', { declarationType: 'OC', fromDate: today, toDate: today });
      assert.equal(data.length, expected.total, 'one row per class C export created today');
      assert.equal(new Set(trackings).size <= trackings.length, true);
    }),
  );
});
