// Settings of the end-to-end run, from the environment (scripts/test.sh sets them).
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/** The server under test: API + the built web app on one origin. */
export const BASE_URL = (process.env.CLEARWAY_URL || 'http://127.0.0.1:18080').replace(/\/+$/, '');

/** Debian's Chromium; never a downloaded browser. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The demo password of every demo login (README). */
export const DEMO_PASSWORD = process.env.CLEARWAY_DEMO_PASSWORD || 'Demopass2026';

/** Customers sign in at /login-c; everyone else is staff (/login-b). */
export const CUSTOMERS = new Set(['acme', 'globex']);

/**
 * Generous but bounded: the machines have 2 slow cores and a debug build of the server, and
 * in the full test run the browser shares them with the Rust tests, the fuzzer and vitest
 * (a step that takes 5 s alone took over 20 s there).
 */
export const TIMEOUTS = {
  /** One wait for an element, a navigation or a response. */
  action: Number(process.env.E2E_ACTION_TIMEOUT_MS || 45_000),
  navigation: Number(process.env.E2E_NAVIGATION_TIMEOUT_MS || 90_000),
  /** One test, browser work included. */
  test: Number(process.env.E2E_TEST_TIMEOUT_MS || 420_000),
  /** Launching Chromium. */
  launch: 60_000,
};

/** Every window is this size: small screenshots, a desktop layout (sidebar shown). */
export const VIEWPORT = { width: 1280, height: 800 };

const here = path.dirname(fileURLToPath(import.meta.url));
export const E2E_DIR = path.resolve(here, '..');
export const REPO_DIR = path.resolve(E2E_DIR, '..');
/** Failure screenshots and downloads (gitignored). */
export const RESULTS_DIR = path.join(E2E_DIR, 'test-results');
/** Screenshots for people to look at, committed: docs/screenshots/e2e-*.png. */
export const SCREENSHOTS_DIR = path.join(REPO_DIR, 'docs', 'screenshots');

/** Storage keys of the web app are prefixed with the API host (webapp/src/lib/storage.ts). */
export const STORAGE_PREFIX = new URL(BASE_URL).host;

/**
 * A valid courier `1Z` number: `1Z`, the first 15 capitals and digits of `body` (padded with
 * 0), and the UPS check digit (command/src/rules/tracking.rs).
 */
export function makeUps(body) {
  const b = body.toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 15).padEnd(15, '0');
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    const c = b.charCodeAt(i);
    const v = c <= 57 ? c - 48 : (c - 63) % 10;
    sum += i % 2 === 1 ? 2 * v : v;
  }
  return `1Z${b}${(10 - (sum % 10)) % 10}`;
}

/** A tracking number no earlier run used: the database lives for the whole CI run. */
export function uniqueTrackingNumber(tag = 'E2E') {
  const stamp = Date.now().toString(36).toUpperCase();
  const rand = Math.floor(Math.random() * 36 ** 3).toString(36).toUpperCase().padStart(3, '0');
  return makeUps(`${tag.slice(0, 4)}${stamp}${rand}`);
}
