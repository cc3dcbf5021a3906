// What users see of the customs channel (issue 26), in a real browser, in order:
//   (a) the customs channel page is in the system menu of an admin (who holds
//       customs:management) and not of an operator, who is sent to /403; it shows the
//       channel's state (or that it is not configured), in English and in Chinese, and fits a
//       390 px phone;
//   (b) a declared declaration: the customer's detail page has the customs exchange beside
//       the history, the status query filters by "no receipt yet";
//   (c) with the channel configured (CLEARWAY_CUSTOMS_DIR set for the server and this run),
//       customs' receipts dropped in inbox/ show: the timeline has the message and each
//       receipt with its meaning, the header the entry number, the list the receipt beside
//       the status (filterable), the staff welcome page what customs holds. Without the
//       folder this step is skipped (the server writes and reads nothing then).
import assert from 'node:assert/strict';
import { rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { act, api, createSubmittedCExport, eventually, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { login, screenshot, settle, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const CUSTOMS_DIR = process.env.CLEARWAY_CUSTOMS_DIR || '';
const PHONE = { width: 390, height: 844 };
const ENTRY = '222420261000099999';

const run = { tracking: uniqueTrackingNumber('E2EC'), id: null };

async function pageOverflows(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

async function timeline(username, id) {
  return (await api('GET', `/api/v1/declarations/${id}/customs`, { token: await tokenFor(username) })).data;
}

/** A receipt file dropped the way a gateway does: a temporary name, then a rename. */
async function dropReceipts(name, xml) {
  const inbox = path.join(CUSTOMS_DIR, 'inbox');
  const tmp = path.join(inbox, `.${name}.part`);
  await writeFile(tmp, xml);
  await rename(tmp, path.join(inbox, name));
}

const receipt = (cop, code, notice, extra = '') =>
  `<DEC_RESULT><COP_NO>${cop}</COP_NO><CHANNEL>${code}</CHANNEL><NOTICE_DATE>${notice}</NOTICE_DATE>${extra}</DEC_RESULT>`;

describe('the customs channel, as users see it', () => {
  test('(a) the channel page is in the admin\'s system menu only, in both languages and on a phone', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'admin', { t });
      await visible(page.getByRole('navigation', { name: 'Main menu' }).getByText('Platform management')).first().click();
      await visible(page.getByRole('link', { name: 'Customs channel' })).first().click();
      await waitForPath(page, '/platform-mgt/customs');
      await visible(page.getByRole('heading', { level: 1, name: 'Customs channel' })).waitFor();
      await visible(page.getByRole('region', { name: 'Receipt anomalies' })).waitFor();
      await visible(page.getByRole('region', { name: 'Re-send a message' })).waitFor();
      if (!CUSTOMS_DIR) await visible(page.getByText(/customs channel is not configured/)).waitFor();
      await screenshot(page, 'customs-channel');

      // Chinese, through the stored preference, then a phone's width.
      await page.evaluate(() => {
        for (const k of Object.keys(localStorage)) if (k.endsWith('-lang')) localStorage.setItem(k, 'zh');
      });
      await page.reload();
      await visible(page.getByRole('heading', { level: 1, name: '海关通道' })).waitFor();
      await page.setViewportSize(PHONE);
      await settle(page);
      assert.equal(await pageOverflows(page), false, 'the channel page scrolls sideways at 390 px');
    }),
  );

  test('(a) an operator has no channel page', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'operator', { t });
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await nav.waitFor();
      // Open the system menu if the operator has one, then look for the entry.
      const system = visible(nav.getByText('Platform management'));
      if ((await system.count()) > 0) await system.first().click();
      await settle(page);
      assert.equal(await nav.getByText('Customs channel').count(), 0);
      await page.goto('/platform-mgt/customs');
      await waitForPath(page, '/403');
    }),
  );

  test('(b) a declared declaration shows its customs exchange and matches "no receipt yet"', testOptions(), (t) =>
    withPage(t, async (page) => {
      const { id } = await createSubmittedCExport('acme', run.tracking);
      await act('operator', id, ['review']);
      run.id = id;
      await eventually(
        async () =>
          (
            await api('GET', '/api/v1/declarations', {
              token: await tokenFor('acme'),
              query: { trackingNumber: run.tracking, customsReceipt: 'none' },
            })
          ).data,
        (d) => d.total === 1,
        { what: 'listed without a receipt' },
      );

      await login(page, 'acme', { t });
      await page.goto(`/customs-clearance-supply/detail-c/1?id=${id}`);
      const card = visible(page.getByRole('region', { name: 'Customs exchange' }));
      await card.waitFor();
      await visible(page.getByRole('region', { name: 'History' })).waitFor();

      await page.goto(`/customers-status-query?trackingNumber=${run.tracking}&customsReceipt=none`);
      await visible(page.getByRole('link', { name: run.tracking })).waitFor();
      await page.setViewportSize(PHONE);
      await page.goto(`/customs-clearance-supply/detail-c/1?id=${id}`);
      await visible(page.getByRole('region', { name: 'Customs exchange' })).waitFor();
      await settle(page);
      assert.equal(await pageOverflows(page), false, 'the detail page scrolls sideways at 390 px');
    }),
  );

  test('(c) customs\' receipts show in the timeline, the header, the list and the welcome page', testOptions({ skip: !CUSTOMS_DIR && 'CLEARWAY_CUSTOMS_DIR is not set: the server has no channel' }), (t) =>
    withPage(t, async (page) => {
      assert.ok(run.id, 'step (b) made the declaration');
      const sent = await eventually(
        () => timeline('operator', run.id),
        (d) => d.entries.some((e) => e.kind === 'sent'),
        { what: 'the message written to outbox/', timeout: 30_000 },
      );
      const cop = sent.entries.find((e) => e.kind === 'sent').copNo;
      await dropReceipts(
        `${run.tracking}.xml`,
        `<?xml version="1.0" encoding="UTF-8"?><DEC_RESULTS>${receipt(cop, 'L', '2026-11-28T10:00:00+08:00', `<ENTRY_ID>${ENTRY}</ENTRY_ID>`)}${receipt(cop, 'C', '2026-11-28T12:00:00+08:00', '<NOTE>open the box</NOTE>')}</DEC_RESULTS>`,
      );
      await eventually(
        () => timeline('operator', run.id),
        (d) => d.customsReceipt === 'C' && d.entryId === ENTRY,
        { what: 'the receipts recorded', timeout: 30_000 },
      );

      await login(page, 'operator', { t });
      await page.goto(`/customs-clearance/detail-c/1?id=${run.id}`);
      const card = visible(page.getByRole('region', { name: 'Customs exchange' }));
      await visible(card.getByText('Message sent')).waitFor();
      await visible(card.getByText(/selected for inspection/)).waitFor();
      await visible(card.getByText('open the box')).waitFor();
      await visible(page.getByTestId('entry-id').getByText(ENTRY)).waitFor();
      await visible(page.getByText('C · inspection')).first().waitFor();
      await card.scrollIntoViewIfNeeded();
      await screenshot(page, 'customs-timeline');

      await page.goto(`/customs-clearance/export/export-c?customsReceipt=C&trackingNumber=${run.tracking}`);
      await visible(page.getByRole('table').getByText('C · inspection')).first().waitFor();

      await page.goto('/admin-welcome');
      const holds = visible(page.getByRole('region', { name: 'Held by customs' }));
      await visible(holds.getByRole('link', { name: run.tracking })).waitFor();
      await holds.scrollIntoViewIfNeeded();
      await screenshot(page, 'customs-holds');
    }),
  );
});
