// Customers see only their own declarations (issue 3, scenario g): a foreign declaration's
// id in a detail URL shows "not found", never the other customer's data.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { api, createSubmittedCExport, findByTrackingNumber, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { login, screenshot, visible } from '../lib/ui.mjs';

const { withPage } = useBrowser();

describe('customer isolation', () => {
  const tracking = uniqueTrackingNumber('E2EI');
  let acmeId;

  before(async () => {
    ({ id: acmeId } = await createSubmittedCExport('acme', tracking));
  });

  test('the API answers 404 to another customer and does not list it', testOptions(), async () => {
    const { status, envelope } = await api('GET', `/api/v1/declarations/${acmeId}`, {
      token: await tokenFor('globex'),
      raw: true,
    });
    assert.equal(status, 404, JSON.stringify(envelope));
    assert.equal(await findByTrackingNumber('globex', tracking), null);
  });

  test('globex opening acme\'s declaration by URL sees "not found" and none of its data', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'globex', { t });
      await page.goto(`/customs-clearance-supply/detail-c/1?id=${encodeURIComponent(acmeId)}`);
      await visible(page.getByRole('alert').filter({ hasText: 'The declaration does not exist or you may not see it' })).first().waitFor();
      const text = await page.locator('main').innerText();
      for (const secret of [tracking, 'ACME', 'Li Lei', 'John Smith', '88 Century Avenue']) {
        assert.ok(!text.includes(secret), `the page shows "${secret}" of another customer`);
      }
      await screenshot(page, 'detail-not-found');

      // The edit form of the same id does not open it either.
      await page.goto(`/customs-clearance-supply/detail-c/1?id=${encodeURIComponent(acmeId)}&edit=1`);
      await visible(page.getByRole('alert').filter({ hasText: 'The declaration does not exist or you may not see it' })).first().waitFor();
      assert.ok(!(await page.locator('main').innerText()).includes(tracking));
    }),
  );

  test('globex\'s list does not show acme\'s declaration', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'globex', { t });
      await page.goto(`/customs-clearance-supply/export/export-c?trackingNumber=${encodeURIComponent(tracking)}`);
      // The table settles on "no data".
      await visible(page.getByRole('table')).first().waitFor();
      await page.waitForLoadState('networkidle').catch(() => {});
      assert.equal(await visible(page.getByRole('link', { name: tracking })).count(), 0);
    }),
  );
});
