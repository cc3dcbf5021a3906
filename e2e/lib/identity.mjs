// Identity scenarios (tests/identity.test.mjs): a new customer with an initial password,
// and staff single sign-on through tests/oidc's real OpenID Connect provider, which
// scripts/test.sh starts beside the e2e server (CLEARWAY_OIDC_* point the server at it).
import assert from 'node:assert/strict';
import { api, tokenFor } from './api.mjs';
import { TIMEOUTS } from './config.mjs';
import { waitForPath } from './ui.mjs';

/** The one password of every user of tests/oidc/provider.mjs. */
export const OIDC_PASSWORD = 'secret-PASSWORD';

/** A login name no earlier run used. */
export function uniqueLogin(prefix = 'newcust') {
  const stamp = Date.now().toString(36);
  const rand = Math.floor(Math.random() * 36 ** 3).toString(36).padStart(3, '0');
  return `${prefix}${stamp}${rand}`.toLowerCase();
}

/** A password that passes the rule (10-26, two classes) and contains no login name. */
export function strongPassword(tag) {
  const rand = Math.floor(Math.random() * 36 ** 4).toString(36).padStart(4, '0');
  return `Qx${tag}-${rand}-Pw7`;
}

/**
 * A new customer with a first login, through the archive API as an admin
 * (`POST /api/v1/customers` with the registered Easy-clear ID and account number and an
 * initial password). Answers what the scenarios need, or null when the server has no such
 * endpoint yet.
 */
export async function createCustomerWithLogin() {
  const username = uniqueLogin();
  const upsId = `EC${Date.now().toString(36).toUpperCase()}`;
  const accountNo = `AC-${Math.floor(Math.random() * 1e8).toString().padStart(8, '0')}`;
  const initialPassword = strongPassword('Init');
  const answer = await api('POST', '/api/v1/customers', {
    token: await tokenFor('admin'),
    raw: true,
    body: {
      username,
      companyName: `${username} Trading`,
      upsId,
      accountNo,
      loginEmail: `${username}@example.com`,
      initialPassword,
    },
  });
  // The archive API is new: until the server under test has it, callers fall back.
  if (answer.status === 404 || answer.status === 405) return null;
  const env = answer.envelope;
  assert.equal(env.code, 200, `POST /api/v1/customers: ${JSON.stringify(env)}`);
  const account = env.data?.account;
  assert.ok(account, `POST /api/v1/customers answered no account: ${JSON.stringify(env.data)}`);
  assert.equal(account.username, username);
  return { id: env.data.id, username, upsId, accountNo, initialPassword: account.initialPassword ?? initialPassword };
}

/** Whether the server under test has staff single sign-on configured. */
export async function ssoConfig() {
  return (await api('GET', '/api/v1/sso/config')).data;
}

/** POST /auth/login as {status, envelope}, whatever the answer. */
export function rawLogin(username, password) {
  return api('POST', '/auth/login', { body: { username, password }, raw: true });
}

/**
 * Staff single sign-on in the browser: the button on /login-b, the provider's own login
 * form, back through /auth-redirect to `landing`.
 */
export async function ssoSignIn(page, login, { landing = '/admin-welcome' } = {}) {
  await page.goto('/login-b');
  const button = page.getByRole('button', { name: 'Sign in with corporate account' });
  await button.waitFor();
  // Enabled once GET /api/v1/sso/config said so.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('button')].some(
        (b) => b.textContent?.includes('Sign in with corporate account') && !b.disabled && !b.dataset.loading,
      ),
    null,
    { timeout: TIMEOUTS.action },
  );
  await button.click();
  // The provider's interaction page (another origin).
  await page.waitForURL((u) => new URL(u).pathname.startsWith('/interaction/'), { timeout: TIMEOUTS.navigation });
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(OIDC_PASSWORD);
  await page.locator('button[type="submit"]').click();
  await waitForPath(page, landing);
}

/** The web app's stored token (host-prefixed localStorage key). */
export function storedToken(page, prefix) {
  return page.evaluate((key) => window.localStorage.getItem(key), `${prefix}-token`);
}

/** A new staff member with an initial password (development mode, `POST /api/v1/staff`). */
export async function createStaffWithPassword() {
  const username = uniqueLogin('newstaff');
  const initialPassword = strongPassword('Init');
  const env = await api('POST', '/api/v1/staff', {
    token: await tokenFor('admin'),
    body: {
      staffId: username.slice(0, 20).toUpperCase(),
      staffEmail: `${username}@clearway.example.com`,
      staffName: `New Staff ${username}`,
      roles: ['OPERATOR'],
      username,
      initialPassword,
    },
  });
  return { id: env.data.id, username, initialPassword };
}

/** Staff force a new password at the next sign-in (10003) on an account. */
export async function forcePasswordReset(accountId) {
  await api('POST', `/api/v1/accounts/${accountId}/force-password-reset`, {
    token: await tokenFor('admin'),
    body: {},
  });
}
