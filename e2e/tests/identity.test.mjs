// Identity in the browser (issue "Identity, access and administration"):
//   (a) a new customer is forced to set a password at the first sign-in, then is signed in;
//   (b) that customer, not yet bound, is kept on /customers-center/bind until the
//       registered Easy-clear ID and account number are bound;
//   (c) an operator signs in through the OpenID Connect provider and sees only the menus
//       their permissions allow; logging out ends the session at the provider too;
//   (d) a wrong password shows the error; forgot-password shows its one confirmation.
// (c) needs the server started with CLEARWAY_OIDC_* pointing at tests/oidc's provider
// (scripts/test.sh does that).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api } from '../lib/api.mjs';
import { STORAGE_PREFIX } from '../lib/config.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import {
  createCustomerWithLogin,
  createStaffWithPassword,
  forcePasswordReset,
  rawLogin,
  ssoConfig,
  ssoSignIn,
  storedToken,
  strongPassword,
} from '../lib/identity.mjs';
import { field, pathname, screenshot, visible, waitForPath, waitForShell, where } from '../lib/ui.mjs';

const { withPage } = useBrowser();

async function fillLogin(page, username, password) {
  const user = page.locator('input[autocomplete="username"]');
  await user.waitFor({ state: 'visible' });
  await user.fill(username);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
}

describe('a new customer', () => {
  /** Filled by (a), used by (b). */
  let customer = null;
  let password = null;

  test('(a) is forced to set a password at the first sign-in, then is signed in', testOptions(), (t) =>
    withPage(t, async (page) => {
      customer = await createCustomerWithLogin();
      assert.ok(customer, 'needs POST /api/v1/customers (the customer archive API) on the server under test');
      const user = customer;
      // The server answers 10002 with a temporary token for a new user.
      const first = await rawLogin(user.username, user.initialPassword);
      assert.equal(first.envelope.code, 10002, JSON.stringify(first.envelope));

      await page.goto('/login-c');
      await fillLogin(page, user.username, user.initialPassword);
      await waitForPath(page, '/pass-reset');
      // The temporary token never travels in the URL.
      assert.equal(where(page), '/pass-reset');
      await page.getByText(`First sign-in: please set a password for ${user.username}.`).waitFor();

      // The page checks the rule before sending.
      await field(page, 'New password').fill('short');
      await field(page, 'Confirm new password').fill('short');
      await page.getByRole('button', { name: 'OK' }).click();
      await visible(page.getByText(/^Length 10-26/)).first().waitFor();
      assert.equal(pathname(page), '/pass-reset');

      password = strongPassword('Set');
      await field(page, 'New password').fill(password);
      await field(page, 'Confirm new password').fill(password);
      await screenshot(page, 'pass-reset');
      await page.getByRole('button', { name: 'OK' }).click();

      // Signed in with it: a customer not bound yet sees the bind page.
      await waitForPath(page, '/customers-center/bind');
      await waitForShell(page);
      assert.ok(await storedToken(page, STORAGE_PREFIX), 'a token is stored');
      // The initial password no longer works; the new one does.
      assert.equal((await rawLogin(user.username, user.initialPassword)).envelope.code, 10000);
      assert.equal((await rawLogin(user.username, password)).envelope.code, 200);
    }),
  );

  test('(b) stays on the bind page until the registered Easy-clear ID is bound', testOptions(), (t) =>
    withPage(t, async (page) => {
      assert.ok(customer && password, '(a) must have created the customer and set its password');
      await page.goto('/login-c');
      await fillLogin(page, customer.username, password);
      await waitForPath(page, '/customers-center/bind');
      await waitForShell(page);

      // Every customer route leads back here while nothing is bound.
      for (const path of [
        '/customer-welcome',
        '/customers-center/account',
        '/customs-clearance-supply/export/export-c',
        '/customers-status-query',
      ]) {
        await page.goto(path);
        await waitForPath(page, '/customers-center/bind');
      }
      await visible(page.getByRole('heading', { name: 'Bind your Easy-clear ID' })).waitFor();
      await screenshot(page, 'customers-center-bind');

      // A mismatch is refused with the server's message, and nothing is bound.
      await field(page, 'Easy-clear ID').fill(customer.upsId);
      await field(page, 'Account number').fill('WRONG-0000');
      await visible(page.getByRole('button', { name: 'Bind', exact: true })).click();
      const alert = visible(page.locator('[role="alert"], .mantine-TextInput-error')).first();
      await alert.waitFor();
      assert.equal(pathname(page), '/customers-center/bind');

      await field(page, 'Account number').fill(customer.accountNo);
      await visible(page.getByRole('button', { name: 'Bind', exact: true })).click();
      await waitForPath(page, '/customer-welcome');
      await waitForShell(page);

      // Unlocked: the account page opens and shows the bound ID.
      await page.goto('/customers-center/account');
      await waitForPath(page, '/customers-center/account');
      await visible(page.getByText(customer.upsId, { exact: true })).first().waitFor();
      await visible(page.getByText('Bound', { exact: true })).first().waitFor();
      await visible(page.getByText(customer.username, { exact: true })).first().waitFor();
      await screenshot(page, 'customers-center-account');
      assert.equal(pathname(page), '/customers-center/account');
    }),
  );
});

describe('a required new password', () => {
  test('a staff member whose reset was forced (10003) sets a new password on /pass-update and is signed in', testOptions(), (t) =>
    withPage(t, async (page) => {
      const staff = await createStaffWithPassword();
      await forcePasswordReset(staff.id);
      assert.equal((await rawLogin(staff.username, staff.initialPassword)).envelope.code, 10003);

      await page.goto('/login-b');
      await fillLogin(page, staff.username, staff.initialPassword);
      await waitForPath(page, '/pass-update');
      assert.equal(where(page), '/pass-update');
      await page.getByText(new RegExp(`set a new password for ${staff.username}`)).waitFor();

      // The same password again is refused by the server, on its field.
      await field(page, 'New password').fill(staff.initialPassword);
      await field(page, 'Confirm new password').fill(staff.initialPassword);
      await page.getByRole('button', { name: 'OK' }).click();
      await visible(page.getByText('the new password must differ from the old one')).first().waitFor();

      const password = strongPassword('Upd');
      await field(page, 'New password').fill(password);
      await field(page, 'Confirm new password').fill(password);
      await page.getByRole('button', { name: 'OK' }).click();
      await waitForPath(page, '/admin-welcome');
      await waitForShell(page);
      assert.equal((await rawLogin(staff.username, password)).envelope.code, 200);
    }),
  );
});

describe('staff single sign-on', () => {
  test('(c) an operator signs in through the OpenID Connect provider and sees only permitted menus', testOptions(), (t) =>
    withPage(t, async (page) => {
      const config = await ssoConfig();
      assert.equal(
        config.enabled,
        true,
        'single sign-on is off on the server under test: start it with CLEARWAY_OIDC_* pointing at tests/oidc (scripts/test.sh e2e does)',
      );
      await ssoSignIn(page, 'operator');
      await waitForShell(page);

      const token = await storedToken(page, STORAGE_PREFIX);
      assert.ok(token, 'the sign-on stored a token');
      const session = (await api('GET', '/api/v1/session', { token })).data;
      assert.equal(session.username, 'operator');
      // The role comes from our grants, not from the provider's "super admin" groups.
      assert.equal(session.role, 'OPERATOR');

      const nav = page.getByRole('navigation', { name: 'Main menu' });
      await nav.waitFor();
      for (const label of ['Customs Declaration Documents', 'Clearance exceptions', 'Customer management']) {
        await visible(nav.getByText(label, { exact: true })).first().waitFor();
      }
      for (const label of ['Staff management', 'Role management', 'Port management', 'Platform management']) {
        assert.equal(await visible(nav.getByText(label, { exact: true })).count(), 0, `no "${label}" menu`);
      }
      await screenshot(page, 'sso-operator');

      // Logging out of a single sign-on session also signs out at the provider, which then
      // sends the browser back to /login-b.
      const appHost = new URL(page.url()).host;
      await visible(page.getByRole('button', { name: 'Log out' })).first().click();
      await visible(page.getByRole('button', { name: 'OK' })).click();
      await page.waitForURL((u) => new URL(u).host !== appHost, { timeout: 30_000 });
      await page.getByRole('button', { name: 'Yes, sign me out' }).click();
      await waitForPath(page, '/login-b');
      assert.equal(new URL(page.url()).host, appHost);
      const revoked = await api('GET', '/api/v1/session', { token, raw: true });
      assert.equal(revoked.status, 401, 'the session was revoked');
    }),
  );

  test('(c) a sign-in the server refuses shows its message and a way to try again', testOptions(), (t) =>
    withPage(t, async (page) => {
      await ssoSignIn(page, 'unknown', { landing: '/auth-redirect' });
      await page.getByText('Corporate sign-in did not complete').waitFor();
      await page.getByText(/Ask an administrator to create your staff account/).waitFor();
      await screenshot(page, 'sso-unknown-staff');
      await page.getByRole('link', { name: 'Try again' }).click();
      await waitForPath(page, '/login-b');
    }),
  );
});

describe('sign-in errors and forgotten passwords', () => {
  test('(d) a wrong password shows the error and forgot-password shows its confirmation', testOptions(), (t) =>
    withPage(t, async (page) => {
      await page.goto('/login-c');
      await fillLogin(page, 'globex', 'Not-the-password-9');
      const alert = visible(page.getByRole('alert')).first();
      await alert.waitFor();
      assert.match(await alert.innerText(), /wrong username or password/i);
      assert.equal(pathname(page), '/login-c');

      await page.getByRole('link', { name: 'Forgot password?' }).click();
      await waitForPath(page, '/forget-password');
      // The field is required.
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText('Please enter your username or e-mail').waitFor();
      await field(page, 'Username or e-mail').fill('globex');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText(/If the account exists and has an e-mail address, a reset link has been sent/).waitFor();
      await screenshot(page, 'forget-password');

      // An unknown name gets the very same answer (no account oracle).
      await page.goto('/forget-password');
      await field(page, 'Username or e-mail').fill('nobody-at-all@example.com');
      await page.getByRole('button', { name: 'Send reset link' }).click();
      await page.getByText(/If the account exists and has an e-mail address, a reset link has been sent/).waitFor();
    }),
  );

  test('(d) the SAML pages tell staff to use the corporate sign-on', testOptions(), (t) =>
    withPage(t, async (page) => {
      await page.goto('/lasso/callback');
      await visible(page.getByText('SAML sign-in is not offered')).first().waitFor();
      await page.getByRole('link', { name: 'Go to staff login' }).click();
      await waitForPath(page, '/login-b');
    }),
  );
});
