// The shell: sign-in pages, the language switch, the navigation guard's redirects
// (issue 3, scenarios e and f) and screenshots of the login and welcome pages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { knownBug } from '../lib/known-bugs.mjs';
import { login, pathname, screenshot, visible, waitForPath, where } from '../lib/ui.mjs';

const { withPage } = useBrowser();

describe('sign-in pages', () => {
  test('the customer login page is served and shows its form (screenshot)', testOptions(), (t) =>
    withPage(t, { lang: null }, async (page) => {
      await page.goto('/login-c');
      await page.locator('input[autocomplete="username"]').waitFor();
      // Chinese is the default language.
      await page.getByText('客户登录', { exact: true }).first().waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'zh-CN');
      await screenshot(page, 'login-c');
    }),
  );

  test('switching to English changes the login page strings, and the choice is remembered', testOptions(), (t) =>
    withPage(t, { lang: null }, async (page) => {
      await page.goto('/login-c');
      const submit = page.locator('form button[type="submit"]');
      await submit.waitFor();
      assert.equal((await submit.innerText()).trim(), '登录');
      await page.getByText('客户登录', { exact: true }).first().waitFor();

      // The switch is named by its aria-label and shows the other language.
      const toEnglish = page.getByRole('button', { name: '切换语言' });
      assert.equal((await toEnglish.innerText()).trim(), 'English');
      await toEnglish.click();

      await page.getByText('Customer login', { exact: true }).first().waitFor();
      assert.equal((await submit.innerText()).trim(), 'Log in');
      await page.getByLabel('Username').waitFor();
      await page.getByLabel('Password').first().waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
      assert.equal(await page.getByText('客户登录', { exact: true }).count(), 0, 'no Chinese title left');
      // The switch now offers Chinese back, and is named in English.
      const toChinese = page.getByRole('button', { name: 'Switch language' });
      assert.equal((await toChinese.innerText()).trim(), '中文');

      // Remembered across a reload.
      await page.reload();
      await page.getByText('Customer login', { exact: true }).first().waitFor();
      await screenshot(page, 'login-c-en');

      // And back.
      await page.getByRole('button', { name: 'Switch language' }).click();
      await page.getByText('客户登录', { exact: true }).first().waitFor();
    }),
  );

  test('a wrong password is refused on the page, not signed in', testOptions(), (t) =>
    withPage(t, async (page) => {
      await page.goto('/login-c');
      await page.locator('input[autocomplete="username"]').fill('acme');
      await page.locator('input[autocomplete="current-password"]').fill('not-the-password-1');
      await page.locator('form button[type="submit"]').click();
      await page.getByRole('alert').first().waitFor();
      assert.equal(pathname(page), '/login-c');
    }),
  );

  test('staff sign in with the development password form and land on the admin welcome page', testOptions(knownBug('loginBlankRoot')), (t) =>
    withPage(t, async (page) => {
      await login(page, 'admin', { strict: true });
      assert.equal(pathname(page), '/admin-welcome');
    }),
  );

  test('a customer signs in and lands on the customer welcome page', testOptions(knownBug('loginBlankRoot')), (t) =>
    withPage(t, async (page) => {
      await login(page, 'acme', { strict: true });
      assert.equal(pathname(page), '/customer-welcome');
    }),
  );

  test('the welcome pages: the admin gets the export button, a customer the contact block (screenshots)', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'admin', { t });
      await visible(page.getByRole('button', { name: 'Download report' })).waitFor();
      await visible(page.getByRole('heading', { name: /Welcome/ })).first().waitFor();
      await screenshot(page, 'admin-welcome');
    }).then(() =>
      withPage(t, async (page) => {
        await login(page, 'acme', { t });
        await visible(page.getByRole('button', { name: 'Questions? Contact us' })).waitFor();
        assert.equal(await visible(page.getByRole('button', { name: 'Download report' })).count(), 0);
        await screenshot(page, 'customer-welcome');
      }),
    ),
  );
});

describe('navigation guard', () => {
  test('an anonymous visit to a protected route goes to /login-c?redirect=<path and query>', testOptions(), (t) =>
    withPage(t, async (page) => {
      const wanted = '/customs-clearance-supply/export/export-c?status=1';
      await page.goto(wanted);
      await waitForPath(page, '/login-c');
      const url = new URL(page.url());
      assert.equal(url.searchParams.get('redirect'), wanted, where(page));
      // Signing in from there continues to the wanted page, query included.
      await login(page, 'acme', { t, expectPath: '/customs-clearance-supply/export/export-c' });
      assert.equal(new URL(page.url()).searchParams.get('status'), '1');
    }),
  );

  test('/ sends an anonymous visitor to the customer login', testOptions(), (t) =>
    withPage(t, async (page) => {
      await page.goto('/');
      await waitForPath(page, '/login-c');
    }),
  );

  test('a customer opening staff routes lands on /403', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'acme', { t });
      for (const staffRoute of ['/platform-mgt/roles', '/customs-clearance/export/export-c', '/admin-welcome']) {
        await page.goto(staffRoute);
        await waitForPath(page, '/403');
        await page.getByText('Sorry, you may not open this page').waitFor();
      }
      await screenshot(page, '403');
    }),
  );

  test("staff opening a customer's link land on the staff page of the same list", testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'operator', { t });
      await page.goto('/customs-clearance-supply/export/export-c');
      await waitForPath(page, '/customs-clearance/export/export-c');
    }),
  );

  test('a signed-in user opening a login page is sent home', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'acme', { t });
      await page.goto('/login-c');
      await waitForPath(page, '/customer-welcome');
    }),
  );
});
