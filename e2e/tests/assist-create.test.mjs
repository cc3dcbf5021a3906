// Issue 14, the assisted creation wizard in a real browser: the customer acme opens
// /customs-clearance-supply/assist-to-create, chooses export class C, copies an earlier
// declaration found by its tracking number, sees the server flag the tracking number the
// copy leaves empty (under the field, from POST /api/v1/declarations/validate), fills it,
// watches the check pass with the class check's reason, saves a draft and lands on the new
// declaration; the server holds it as a draft with the copied fields and the new number.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, eventually, findByTrackingNumber, fullCExport, getDeclaration, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { field, login, screenshot, visible } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const SOURCE = uniqueTrackingNumber('WS');
const COPY = uniqueTrackingNumber('WC');

describe('assisted declaration creation', () => {
  test('a customer copies an earlier declaration, fixes the flagged field and saves a draft', testOptions(), (t) =>
    withPage(t, async (page) => {
      // The earlier declaration, and the list showing it (the copy step searches the list).
      const token = await tokenFor('acme');
      const source = { ...fullCExport(SOURCE), shipperName: 'Wizard Source Shipper' };
      await api('POST', '/api/v1/declarations', { token, body: source });
      await eventually(() => findByTrackingNumber('acme', SOURCE), (d) => d !== null, {
        what: `${SOURCE} in the declaration list`,
      });

      await login(page, 'acme', { t });
      await page.goto('/customs-clearance-supply/assist-to-create');
      await visible(page.getByRole('heading', { name: 'Assisted declaration' })).waitFor();

      // 1. A customer files for their own company.
      await visible(page.getByText(/The declaration is filed for your company/)).waitFor();
      await visible(page.getByRole('button', { name: 'Next' })).click();
      // 2. Export class C.
      await visible(page.getByRole('radio', { name: /Export class C/ })).click();
      await visible(page.getByRole('button', { name: 'Next' })).click();
      // 3. Copy the earlier declaration, found by its tracking number.
      await visible(page.getByRole('radio', { name: /Copy an earlier declaration/ })).click();
      await field(page, 'Find by tracking number').fill(SOURCE);
      await visible(page.getByRole('button', { name: `Choose ${SOURCE}` })).click();
      await visible(page.getByText(`${SOURCE} chosen`)).waitFor();
      await visible(page.getByRole('button', { name: 'Next' })).click();

      // 4. The copy: its fields without the tracking number, which the server flags.
      const tracking = field(page, 'Tracking number');
      await tracking.waitFor();
      assert.equal(await tracking.inputValue(), '');
      assert.equal(await field(page, 'Shipper').inputValue(), 'Wizard Source Shipper');
      await visible(page.getByText('Tracking No.: is required').first()).waitFor();
      await visible(page.getByTestId('check-status').getByText(/not even a draft can be saved/)).waitFor();
      await screenshot(page, 'assist-create-flagged');

      await tracking.fill(COPY);
      await visible(page.getByTestId('check-status').getByText('No problems: ready to submit')).waitFor();
      assert.equal(await visible(page.getByText('Tracking No.: is required')).count(), 0);
      const classCheck = page.getByTestId('class-check');
      await visible(classCheck.getByText('Class C proposed, as chosen')).waitFor();
      await visible(classCheck.getByText(/value 170 USD = CNY [\d.]+ at the day's rate/)).waitFor();
      await visible(page.getByRole('button', { name: 'Next' })).click();

      // 5. Review and save the draft; the new declaration opens.
      await visible(page.getByRole('cell', { name: COPY, exact: true })).waitFor();
      await visible(page.getByRole('button', { name: 'Save draft' })).click();
      await page.waitForURL((u) => new URL(u).pathname === '/customs-clearance-supply/detail-c/1');
      const id = new URL(page.url()).searchParams.get('id');
      assert.ok(id, 'the new declaration is opened');
      await visible(page.getByText(COPY).first()).waitFor();
      await screenshot(page, 'assist-create-saved');

      const saved = await getDeclaration('acme', id);
      assert.equal(saved.status, 0, 'a draft');
      assert.equal(saved.declarationType, 'OC');
      assert.equal(saved.trackingNumber, COPY);
      assert.equal(saved.shipperName, 'Wizard Source Shipper');
      assert.equal(saved.declarationGoodsInfo.length, 1);
      assert.equal(saved.declarationGoodsInfo[0].goodsCode, '6109100000');
      // And the draft is listed as the customer's.
      await eventually(() => findByTrackingNumber('acme', COPY), (d) => d?.status === 0, {
        what: `${COPY} as a draft in the list`,
      });
    }),
  );
});
