// The welcome dashboards count Asia/Shanghai days (issue 10, "the welcome dashboards count
// from the browser's date"): a browser in another time zone must still ask for the
// Shanghai dates, or every status card shows 0 while it is already tomorrow in Shanghai.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { login, todayYmd, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const ZONE = 'America/Los_Angeles';
const HOUR = 3_600_000;

/** YYYYMMDD of `at` in `timeZone`. */
const ymdIn = (at, timeZone) =>
  new Intl.DateTimeFormat('en-CA', { timeZone }).format(at).replaceAll('-', '');

/** The Shanghai day `days` days before the one holding `at`, as YYYYMMDD. */
function shanghaiDaysBefore(at, days) {
  const [y, m, d] = ymdIn(at, 'Asia/Shanghai').match(/^(\d{4})(\d{2})(\d{2})$/).slice(1).map(Number);
  return new Date(Date.UTC(y, m - 1, d - days)).toISOString().slice(0, 10).replaceAll('-', '');
}

describe('the admin welcome page in a browser outside China', () => {
  test('asks for the counts of the last 30 Shanghai days, not of the browser\'s days', testOptions(), (t) =>
    withPage(t, { timezoneId: ZONE }, async (page) => {
      // Los Angeles and Shanghai read the same date only from 08:00 to 16:00 UTC; then the
      // browser's clock is set back 9 hours so that the two dates differ and the test can fail.
      let now = new Date();
      if (ymdIn(now, ZONE) === ymdIn(now, 'Asia/Shanghai')) {
        now = new Date(now.getTime() - 9 * HOUR);
        await page.clock.install({ time: now });
      }
      const browserDay = ymdIn(now, ZONE);
      const shanghaiDay = ymdIn(now, 'Asia/Shanghai');
      assert.notEqual(browserDay, shanghaiDay, 'the browser and Shanghai read different dates');

      const counts = [];
      page.on('request', (r) => {
        const url = new URL(r.url());
        if (url.pathname === '/api/v1/declarations/counts') counts.push(url.searchParams);
      });
      await login(page, 'admin', { t });
      await waitForPath(page, '/admin-welcome');
      assert.equal(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), ZONE);
      assert.equal(
        await page.evaluate(() => {
          const d = new Date();
          return `${d.getFullYear()}${String(d.getMonth() + 1).padStart(2, '0')}${String(d.getDate()).padStart(2, '0')}`;
        }),
        browserDay,
      );
      for (let i = 0; i < 100 && counts.length === 0; i++) await page.waitForTimeout(200);
      assert.ok(counts.length > 0, 'the welcome page asked for the declaration counts');
      for (const params of counts) {
        assert.equal(params.get('toDate'), shanghaiDay);
        assert.equal(params.get('fromDate'), shanghaiDaysBefore(now, 29));
      }
      if (now.getTime() > Date.now() - HOUR) assert.equal(shanghaiDay, todayYmd());
    }),
  );
});
