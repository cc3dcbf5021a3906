// Issue 24, bad data stops at the form and a shipment is found by its number, in a real
// browser:
// - the customer acme opens a new class C export, types the tracking number "ABC123", a
//   gross weight "abc" and a shipper phone "not-a-phone": each field says what is wrong in
//   the form's words (the weight is not dropped but refused, naming what was typed), the
//   summary names the fields by their labels, and nothing reaches the server;
// - the header's search finds a declaration whatever the case and spacing of its number,
//   answers in the order asked with its milestones, and another customer finds nothing.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSubmittedCExport, findByTrackingNumber } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { field, login, screenshot, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const CUSTOMER_LIST = '/customs-clearance-supply/export/export-c';

describe('field rules on the declaration form', () => {
  test('a bad tracking number, a weight that is no number and a bad phone stop at the form', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'acme', { t });
      await page.goto(CUSTOMER_LIST);
      await visible(page.getByRole('button', { name: 'New declaration' })).click();
      await waitForPath(page, '/customs-clearance-supply/detail-c/1');
      await visible(page.getByRole('heading', { name: /New Export class C declaration/ })).waitFor();

      await field(page, 'Tracking number').fill('ABC123');
      await field(page, 'Parcel gross weight (kg)').fill('abc');
      // The weight stays as typed: it is refused, not silently dropped.
      assert.equal(await field(page, 'Parcel gross weight (kg)').inputValue(), 'abc');
      await visible(page.getByRole('button', { name: 'Save draft' })).click();

      await visible(page.getByText('Needs at least 8 letters and digits, at least 4 of them digits')).first().waitFor();
      await visible(page.getByText("Must be a number, got 'abc'")).first().waitFor();
      const summary = visible(page.getByRole('alert').filter({ hasText: 'problem(s) to fix' })).first();
      await summary.waitFor();
      const said = await summary.innerText();
      assert.doesNotMatch(said, /grossWeight|trackingNumber/, `no JSON paths in "${said}"`);
      await screenshot(page, 'form-field-rules');
      assert.equal(await findByTrackingNumber('acme', 'ABC123'), null, 'nothing was saved');

      // A valid number and weight save; the phone is refused on submit, in the form's words.
      const tracking = uniqueTrackingNumber('FR');
      await field(page, 'Tracking number').fill(tracking.toLowerCase());
      await field(page, 'Parcel gross weight (kg)').fill('2');
      await field(page, 'Shipper phone').fill('not-a-phone');
      await visible(page.getByRole('button', { name: 'Save and submit' })).click();
      await visible(page.getByText(/Not a phone number: use a mainland mobile/)).first().waitFor();
      assert.equal(await findByTrackingNumber('acme', tracking), null, 'not submitted');
    }),
  );
});

describe('finding a shipment', () => {
  const tracking = uniqueTrackingNumber('FS');

  test('the header search finds a number whatever its case and spacing, with its milestones', testOptions(), (t) =>
    withPage(t, async (page) => {
      await createSubmittedCExport('acme', tracking);
      await login(page, 'acme', { t });
      const typed = `${tracking.slice(0, 6).toLowerCase()} ${tracking.slice(6, 12)} ${tracking.slice(12).toLowerCase()}`;
      const search = visible(page.getByRole('textbox', { name: 'Find a shipment by tracking number' }));
      await search.fill(typed);
      await search.press('Enter');
      await page.waitForURL((u) => new URL(u).pathname === '/find');
      await visible(page.getByRole('link', { name: tracking })).waitFor();
      await visible(page.getByTestId('milestones').getByText('Submitted')).first().waitFor();
      await screenshot(page, 'header-search');

      // The "all declarations" list beside the per-class menus holds it too, its type named.
      await page.goto('/customs-clearance-supply/all');
      const row = visible(page.getByRole('row').filter({ has: page.getByRole('link', { name: tracking }) }));
      await row.first().waitFor();
      await row.first().getByText('Export class C').waitFor();
    }),
  );

  test("another customer's search finds nothing", testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'globex', { t });
      const search = visible(page.getByRole('textbox', { name: 'Find a shipment by tracking number' }));
      await search.fill(tracking);
      await search.press('Enter');
      await visible(page.getByText(`Not found: ${tracking}`)).waitFor();
      assert.equal(await page.getByRole('link', { name: tracking }).count(), 0);
    }),
  );
});
