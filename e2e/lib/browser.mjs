// One headless Chromium per test file, a fresh context (cookies, storage) per test, and a
// screenshot + page log in test-results/ when a test fails.
import { after, before } from 'node:test';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { BASE_URL, CHROMIUM_PATH, RESULTS_DIR, STORAGE_PREFIX, TIMEOUTS, VIEWPORT } from './config.mjs';

/** The flags of shared/DEPENDENCIES.md (playwright adds --headless itself). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Options of one test: bounded, and the whole file stops at the first hang. */
export const testOptions = (extra = {}) => ({ timeout: TIMEOUTS.test, ...extra });

function slug(s) {
  return s
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80)
    .toLowerCase();
}

/**
 * Registers before/after hooks that launch and close the browser; answers
 * { withPage(t, options, fn), browser() }.
 */
export function useBrowser() {
  let browser = null;

  before(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: TIMEOUTS.launch,
    });
  });

  after(async () => {
    await browser?.close();
  });

  /**
   * Runs `fn(page, context)` in a fresh context. Options: `lang` ('en' or 'zh') stored as the
   * web app's language before the first page loads (default 'en'; null leaves the app's
   * default, Chinese), `downloads` (accept downloads, default true), `timezoneId` (the
   * browser's time zone, default Asia/Shanghai).
   */
  async function withPage(t, options, fn) {
    if (typeof options === 'function') {
      fn = options;
      options = {};
    }
    const { lang = 'en', timezoneId = 'Asia/Shanghai' } = options;
    if (!browser) throw new Error('the browser did not start (see the before hook)');
    const context = await browser.newContext({
      baseURL: BASE_URL,
      viewport: VIEWPORT,
      acceptDownloads: true,
      locale: lang === 'en' ? 'en-US' : 'zh-CN',
      timezoneId,
    });
    context.setDefaultTimeout(TIMEOUTS.action);
    context.setDefaultNavigationTimeout(TIMEOUTS.navigation);
    if (lang) {
      // Only when the user has not chosen yet, so a switch during the test sticks.
      await context.addInitScript(
        ([key, value]) => {
          try {
            if (window.localStorage.getItem(key) === null) window.localStorage.setItem(key, value);
          } catch {
            /* storage unavailable: the app's default language */
          }
        },
        [`${STORAGE_PREFIX}-lang`, lang],
      );
    }
    const page = await context.newPage();
    const log = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') log.push(`[console.${m.type()}] ${m.text()}`);
    });
    page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
    page.on('requestfailed', (r) => log.push(`[requestfailed] ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ''}`));
    page.on('response', (r) => {
      if (r.status() >= 500) log.push(`[http ${r.status()}] ${r.request().method()} ${r.url()}`);
    });
    try {
      await fn(page, context);
    } catch (error) {
      const name = slug(t.fullName ?? t.name ?? 'test');
      try {
        await mkdir(RESULTS_DIR, { recursive: true });
        const png = path.join(RESULTS_DIR, `${name}.png`);
        await page.screenshot({ path: png, fullPage: true, timeout: 10_000 });
        const txt = path.join(RESULTS_DIR, `${name}.txt`);
        await writeFile(txt, [`url: ${page.url()}`, `error: ${error?.stack ?? error}`, ...log].join('\n') + '\n');
        t.diagnostic(`failure screenshot: ${png}`);
        t.diagnostic(`page url: ${page.url()}`);
        for (const line of log.slice(-15)) t.diagnostic(line);
      } catch (shotError) {
        t.diagnostic(`could not save the failure screenshot: ${shotError.message}`);
      }
      throw error;
    } finally {
      await context.close().catch(() => {});
    }
  }

  return { withPage, browser: () => browser };
}
