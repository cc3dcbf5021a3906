// Every journey true and easy (issue 24): a phone (390x844) gets a closed menu behind a
// burger and one user menu with the person's own actions; status badges are not cut; every
// role lands on a page it may open (the compliance reviewer too) and a refused page keeps
// the menu; an operator sees no export the server would refuse; staff opening a customer's
// declaration link end on the staff page of the same declaration.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createSubmittedCExport, getDeclaration, raiseInvoiceException } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { login, pathname, screenshot, settle, visible, waitForPath, waitForShell } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const PHONE = { width: 390, height: 844 };

/** An export exception on a new declaration of acme's, raised by the operator (unprocessed). */
async function raiseException(tag) {
  return raiseInvoiceException(
    uniqueTrackingNumber(tag),
    'Please send the commercial invoice for the whole consignment',
  );
}

/** The main menu's box on screen: null or entirely left of the viewport when closed. */
async function menuOnScreen(page) {
  const box = await page.getByRole('navigation', { name: 'Main menu' }).boundingBox();
  return Boolean(box && box.x + box.width > 1 && box.width > 0);
}

/** Wider than the window: the page scrolls sideways. */
async function pageOverflows(page) {
  return page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
}

describe('a phone (390 px)', () => {
  test('after sign-in the menu is closed, the burger opens it, choosing a page closes it; the user menu offers language and log out', testOptions(), (t) =>
    withPage(t, async (page) => {
      const tracking = await raiseException('MOB');
      await page.setViewportSize(PHONE);
      await login(page, 'operator', { t });
      await settle(page);
      assert.equal(await menuOnScreen(page), false, 'the menu covers the page after sign-in');
      assert.equal(await pageOverflows(page), false, 'the page scrolls sideways at 390 px');
      await screenshot(page, 'mobile-signed-in');

      // The burger opens the menu as a drawer; choosing a page closes it.
      await visible(page.getByRole('button', { name: 'Expand menu' })).click();
      await page.waitForFunction(() => {
        const nav = document.querySelector('nav[aria-label="Main menu"]');
        const r = nav?.getBoundingClientRect();
        return r && r.right > 1 && r.left >= -1;
      });
      assert.equal(await menuOnScreen(page), true);
      await screenshot(page, 'mobile-menu-open');
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      const group = visible(nav.getByRole('button', { name: 'Clearance exceptions' }));
      if ((await group.getAttribute('aria-expanded')) !== 'true') await group.click();
      await visible(nav.getByRole('link', { name: 'Exceptions: export shipments' })).click();
      await waitForPath(page, '/clearance-exception/export');
      await page.waitForFunction(() => {
        const r = document.querySelector('nav[aria-label="Main menu"]')?.getBoundingClientRect();
        return !r || r.right <= 1;
      });

      // Status badges size to their text: none is cut with an ellipsis.
      await visible(page.getByText(tracking)).first().waitFor();
      assert.ok((await page.locator('[data-card-list] .mantine-Badge-label:visible').count()) > 0, 'no badge to check');
      await settle(page);
      const cut = await page.evaluate(() =>
        [...document.querySelectorAll('[data-card-list] .mantine-Badge-label')]
          .filter((el) => el.scrollWidth > el.clientWidth + 1)
          .map((el) => el.textContent),
      );
      assert.deepEqual(cut, [], `badges cut: ${cut.join(', ')}`);
      assert.equal(await pageOverflows(page), false, 'the exception list page scrolls sideways');
      await screenshot(page, 'mobile-exception-list');

      // One user menu holds the person's own actions, on screen.
      await visible(page.getByRole('button', { name: /^Account menu of / })).click();
      const language = visible(page.getByRole('menuitem', { name: /Language: 中文/ }));
      const logout = visible(page.getByRole('menuitem', { name: 'Log out' }));
      await language.waitFor();
      await logout.waitFor();
      await visible(page.getByRole('menuitem', { name: 'Change password' })).waitFor();
      for (const item of [language, logout]) {
        const box = await item.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= PHONE.width + 1, 'a menu item off screen');
      }
      await screenshot(page, 'mobile-user-menu');

      // The language item switches the app to Chinese.
      await language.click();
      await visible(page.getByRole('button', { name: /的账户菜单$/ })).click();
      await visible(page.getByRole('menuitem', { name: /English/ })).waitFor();
      // Log out asks first.
      await visible(page.getByRole('menuitem', { name: '退出登录' })).click();
      await visible(page.getByRole('dialog')).getByText('确认退出系统吗？').waitFor();
    }),
  );
});

describe('no dead ends', () => {
  test('the compliance reviewer lands on a page they may open, and "/" takes them there again', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'auditor', { expectPath: '/compliance/log', strict: true, t });
      await visible(page.getByRole('heading', { name: 'Event log' })).waitFor();
      assert.equal(await page.getByText('Sorry, you may not open this page').count(), 0);
      // One clock: the log's time filters are the app's date picker, in Beijing time.
      assert.equal(await visible(page.locator('main input[type="datetime-local"]')).count(), 0);
      assert.ok((await visible(page.getByText('Beijing time (UTC+8)')).count()) >= 2);
      assert.match(await visible(page.getByRole('table', { name: 'Event log' })).innerText(), /UTC\+8/);

      await page.goto('/');
      await waitForPath(page, '/compliance/log');
      await page.goto('/admin-welcome');
      await waitForPath(page, '/compliance/log');
    }),
  );

  test('a refused page keeps the menu and its home button leads to a page the person may open', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'auditor', { expectPath: '/compliance/log', t });
      await page.goto('/customs-clearance/export/export-c');
      await waitForPath(page, '/403');
      await waitForShell(page);
      await visible(page.getByText('Sorry, you may not open this page')).waitFor();
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await visible(nav.getByRole('button', { name: 'Compliance' })).waitFor();
      await screenshot(page, 'forbidden-keeps-menu');
      await visible(page.getByRole('link', { name: 'Back to home' })).click();
      await waitForPath(page, '/compliance/log');
    }),
  );

  test("staff opening a customer's declaration link end on the staff page of the same declaration", testOptions(), (t) =>
    withPage(t, async (page) => {
      const tracking = uniqueTrackingNumber('LNK');
      const { id, position } = await createSubmittedCExport('acme', tracking);
      // Staff read it once the projection has (read-your-writes), so the page finds it too.
      assert.equal((await getDeclaration('operator', id, position)).trackingNumber, tracking);
      await login(page, 'operator', { t });
      await page.goto(`/customs-clearance-supply/detail-c/1?id=${encodeURIComponent(id)}`);
      await waitForPath(page, '/customs-clearance/detail-c/1');
      assert.equal(new URL(page.url()).searchParams.get('id'), id);
      await visible(page.getByText(tracking)).first().waitFor();

      await page.goto('/customs-clearance-supply/export/export-c');
      await waitForPath(page, '/customs-clearance/export/export-c');
    }),
  );
});

describe('roles see only what they can do', () => {
  test('an operator sees no export button; an admin does', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'operator', { t });
      for (const path of ['/clearance-exception/export', '/clearance-exception/import', '/customs-clearance/export/export-c']) {
        await page.goto(path);
        await waitForShell(page);
        await visible(page.getByRole('table')).first().waitFor();
        await settle(page);
        // Page actions and the sidebar's report button (the menu's "Export" group is no export).
        const exports = visible(
          page.locator('main').getByRole('button', { name: /export (report|filtered)|^export$/i }),
        );
        const report = visible(page.getByRole('button', { name: 'Download report' }));
        assert.equal(await exports.count(), 0, `an export button on ${path}`);
        assert.equal(await report.count(), 0, `the export report button on ${path}`);
      }
      assert.equal(pathname(page), '/customs-clearance/export/export-c');
    }),
  );

  test('an admin still finds the exception export, and the exception list fits 1440 px', testOptions(), (t) =>
    withPage(t, async (page) => {
      const tracking = await raiseException('WIDE');
      await page.setViewportSize({ width: 1440, height: 900 });
      await login(page, 'admin', { t });
      await page.goto('/clearance-exception/export');
      await waitForShell(page);
      await visible(page.getByRole('button', { name: 'Download list', exact: true })).waitFor();
      await visible(page.getByText(tracking)).first().waitFor();
      await settle(page);
      const overflow = await page.evaluate(() => {
        const table = [...document.querySelectorAll('main table')].find((el) => el.offsetParent);
        const box = table?.closest('.mantine-ScrollArea-viewport') ?? table?.parentElement;
        return box ? box.scrollWidth - box.clientWidth : 0;
      });
      assert.ok(overflow <= 1, `the exception list scrolls sideways by ${overflow} px at 1440 px`);
      await screenshot(page, 'exception-list-1440');
    }),
  );
});
