// Every journey true and easy (issue 24), the lists on a phone: at 390 px the declaration
// lists and the clearance exceptions list are stacks of cards (no table scrolling
// sideways), each naming the declaration type in the reader's language, in English and in
// Chinese; at desktop width the table stays.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { raiseInvoiceException } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { login, screenshot, settle, visible, waitForShell } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const PHONE = { width: 390, height: 844 };

/** Wider than the window: the page scrolls sideways. */
async function pageOverflows(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

/** Switches the app's language through the stored preference and reloads. */
async function useLanguage(page, lang) {
  await page.evaluate((value) => {
    for (const k of Object.keys(localStorage)) if (k.endsWith('-lang')) localStorage.setItem(k, value);
  }, lang);
  await page.reload();
  await waitForShell(page);
}

/** The card of `tracking` in the page's card list. */
function cardOf(page, tracking) {
  return visible(page.locator('[data-card-list] [role="listitem"]').filter({ hasText: tracking })).first();
}

describe('lists on a phone (390 px)', () => {
  test('the declaration list and the exceptions list are cards naming the type, in English and Chinese', testOptions(), (t) =>
    withPage(t, async (page) => {
      const tracking = uniqueTrackingNumber('CRD');
      await raiseInvoiceException(tracking, 'Please send the commercial invoice');

      await page.setViewportSize(PHONE);
      await login(page, 'operator', { t });

      // All declarations: a card with the type by name and, for staff, its code.
      await page.goto('/customs-clearance/all');
      await waitForShell(page);
      const card = cardOf(page, tracking);
      await card.waitFor();
      assert.equal(await page.locator('main table:visible').count(), 0, 'a table on a phone');
      await card.getByText('Export class C (OC)').waitFor();
      await card.getByRole('link', { name: tracking }).waitFor();
      await settle(page);
      assert.equal(await pageOverflows(page), false, 'the declaration list scrolls sideways at 390 px');
      await screenshot(page, 'mobile-declarations-cards');

      // The exceptions list: the same, with the status and the view action on the card.
      await page.goto('/clearance-exception/export');
      await waitForShell(page);
      const exception = cardOf(page, tracking);
      await exception.waitFor();
      assert.equal(await page.locator('main table:visible').count(), 0, 'a table on a phone');
      await exception.getByText('Export class C (OC)').waitFor();
      await exception.getByRole('button', { name: `View ${tracking}` }).waitFor();
      await settle(page);
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll('[data-card-list] .mantine-Badge-label')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent),
      );
      assert.deepEqual(cut, [], `badges cut: ${cut.join(', ')}`);
      assert.equal(await pageOverflows(page), false, 'the exception list scrolls sideways at 390 px');
      await screenshot(page, 'mobile-exceptions-cards');

      // In Chinese.
      await useLanguage(page, 'zh');
      await cardOf(page, tracking).getByText('出口 C类（OC）').waitFor();
      await page.goto('/customs-clearance/all');
      await waitForShell(page);
      await cardOf(page, tracking).getByText('出口 C类（OC）').waitFor();
      await screenshot(page, 'mobile-declarations-cards-zh');

      // At desktop width the table stays.
      await page.setViewportSize({ width: 1440, height: 900 });
      await visible(page.getByRole('table', { name: '全部报关单' })).waitFor();
      assert.equal(await page.locator('[data-card-list]:visible').count(), 0, 'cards at 1440 px');
    }),
  );
});
