// Things a person does in the web app, through its real pages.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { CUSTOMERS, DEMO_PASSWORD, SCREENSHOTS_DIR, TIMEOUTS } from './config.mjs';

/** Path + query of the page's URL, e.g. "/login-c?redirect=%2Fx". */
export function where(page) {
  const u = new URL(page.url());
  return u.pathname + u.search;
}

export function pathname(page) {
  return new URL(page.url()).pathname;
}

/** Waits until the URL's path satisfies `test` (a string, RegExp or predicate). */
export async function waitForPath(page, test, timeout = TIMEOUTS.navigation) {
  const ok =
    typeof test === 'string'
      ? (u) => u.pathname === test
      : test instanceof RegExp
        ? (u) => test.test(u.pathname + u.search)
        : test;
  await page.waitForURL((u) => ok(new URL(u)), { timeout, waitUntil: 'commit' });
}

/**
 * Signs in through the real login page: /login-c for customers, the development password
 * form of /login-b for staff. Waits for the landing page (or `expectPath`).
 *
 * Known shell bug (reported): after a successful login the app often stops on a blank "/"
 * (two redirects race: the guard's "token on a login page -> /" and the form's own
 * navigate). With `strict: false` (the default) a login stuck there is reported through
 * `t.diagnostic` and the page is reloaded at "/" (what a person would do), so the other
 * scenarios still run; the sign-in tests pass `strict: true` and fail on it.
 */
export async function login(page, username, { password = DEMO_PASSWORD, redirect, expectPath, strict = false, t } = {}) {
  const loginPath = CUSTOMERS.has(username) ? '/login-c' : '/login-b';
  const url = redirect ? `${loginPath}?redirect=${encodeURIComponent(redirect)}` : loginPath;
  if (pathname(page) !== loginPath || (redirect && !page.url().includes('redirect='))) {
    await page.goto(url);
  }
  // On /login-b the form appears once /api/v1/health said "development".
  const user = page.locator('input[autocomplete="username"]');
  await user.waitFor({ state: 'visible' });
  await user.fill(username);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  const landing = expectPath ?? (CUSTOMERS.has(username) ? '/customer-welcome' : '/admin-welcome');
  if (strict) {
    // Normally there within ~3 s; the known race leaves it on "/" for good.
    await waitForPath(page, landing, 15_000);
  } else {
    try {
      await waitForPath(page, landing, 10_000);
    } catch (error) {
      if (pathname(page) !== '/' || !(await isBlank(page))) {
        if (pathname(page) !== landing) throw error;
      } else {
        const note = `login ${username}: the app stopped on a blank "/" after signing in (known shell bug); reloading`;
        if (t) t.diagnostic(note);
        else console.warn(note);
        await page.goto(redirect ?? '/');
        await waitForPath(page, landing);
      }
    }
  }
  await waitForShell(page);
}

/**
 * Waits until the guard has loaded the session (profile, permissions) and the shell shows
 * the page. Moving on earlier is risky: a page load that aborts those requests makes the
 * app forget the login (reported).
 */
export async function waitForShell(page) {
  await page.waitForFunction(
    () => !document.querySelector('[aria-busy="true"]') && document.querySelector('header') && document.querySelector('main'),
    null,
    { timeout: TIMEOUTS.navigation },
  );
}

/** The app rendered nothing visible (only Mantine's style tags). */
export async function isBlank(page) {
  return page.evaluate(() => {
    const root = document.getElementById('root');
    return !root || root.innerText.trim() === '';
  });
}

/** Gives lazy pages, queries and animations a moment to settle (bounded). */
export async function settle(page, timeout = 5_000) {
  await page.waitForLoadState('networkidle', { timeout }).catch(() => {});
  // Mantine's loaders and the global loading overlay.
  await page
    .locator('.mantine-Loader-root:visible')
    .first()
    .waitFor({ state: 'detached', timeout })
    .catch(() => {});
  await page.waitForTimeout(300);
}

/** Saves docs/screenshots/e2e-<name>.png (the viewport: 1280x800). */
export async function screenshot(page, name) {
  await mkdir(SCREENSHOTS_DIR, { recursive: true });
  await settle(page);
  const file = path.join(SCREENSHOTS_DIR, `e2e-${name}.png`);
  await page.screenshot({ path: file, timeout: 15_000 });
  return file;
}

/** Only the visible matches: kept-alive pages stay in the DOM, hidden. */
export function visible(locator) {
  return locator.filter({ visible: true });
}

function escapeRegExp(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * A form control by its label (exactly, give or take the required asterisk), among the
 * visible ones; `scope` narrows the search (a dialog, a section).
 */
export function field(scope, label) {
  const byLabel = scope.getByLabel(new RegExp(`^${escapeRegExp(label)}\\s*\\*?$`));
  // Only inputs: an accordion panel is labelled by its title too ("Shipper").
  return visible(byLabel.and(scope.locator('input, textarea, select, button'))).first();
}

/**
 * Picks an option of a Mantine (searchable) Select: types `search`, then clicks the first
 * option whose text matches `option` (a RegExp or string).
 */
export async function pickOption(page, input, search, option) {
  await input.click();
  if (search) await input.fill(search);
  const opt = visible(page.getByRole('option', { name: option })).first();
  await opt.click();
}

/** Today's date in Shanghai (the server's business day) as YYYYMMDD. */
export function todayYmd() {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Shanghai' }).format(new Date()).replaceAll('-', '');
}
