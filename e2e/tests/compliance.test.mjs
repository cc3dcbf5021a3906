// The compliance screens (issue 15): the auditor filters the whole event log to one
// declaration, opens its timeline, moves the as-of time back before its review and sees the
// earlier status; the chain page shows how far the chain is verified.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { act, api, createSubmittedCExport, eventually, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { field, login, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

/** The value cell of a field row (`data-field`) inside `scope`. */
const fieldValue = (scope, path) => scope.locator(`[data-field="${path}"] td`).nth(1);

describe('the compliance workspace', () => {
  test('the auditor filters the log to a declaration, moves its as-of back before the review, and reads the chain status', testOptions(), (t) =>
    withPage(t, async (page) => {
      const tracking = uniqueTrackingNumber('AUD');
      const { id } = await createSubmittedCExport('acme', tracking);
      await act('operator', id, ['review']);

      // The review as the log records it (the API the page reads, as the auditor).
      const token = await tokenFor('auditor');
      const events = await eventually(
        async () => (await api('GET', '/api/v1/audit/events', { token, query: { trackingNumber: tracking } })).data.records,
        (records) => records.some((r) => r.eventType === 'DeclarationReviewed'),
        { what: 'the review in the audit log' },
      );
      const review = events.find((r) => r.eventType === 'DeclarationReviewed');
      assert.equal(review.streamId, id);

      await login(page, 'auditor', { redirect: '/compliance/log', expectPath: '/compliance/log', t });
      await visible(page.getByRole('heading', { name: 'Event log' })).waitFor();

      // Filter to this declaration's tracking number: only its events remain.
      await field(page, 'Tracking number').fill(tracking);
      await visible(page.getByRole('button', { name: 'Search' })).click();
      const log = visible(page.getByRole('table', { name: 'Event log' }));
      const reviewRow = log.locator(`tr[data-position="${review.position}"]`);
      await reviewRow.waitFor();
      await eventually(
        async () => log.locator('tbody tr[data-position]').count(),
        (n) => n === events.length,
        { what: `${events.length} rows for ${tracking}` },
      );
      assert.match(await reviewRow.innerText(), /DeclarationReviewed/);
      assert.match(await reviewRow.innerText(), /operator/);

      // The payload reads as fields, not JSON.
      await reviewRow.getByRole('button', { name: 'Payload' }).click();
      const payload = log.locator(`tr[data-payload-of="${review.position}"]`);
      await payload.waitFor();
      assert.doesNotMatch(await payload.innerText(), /[{}]"/);

      // Its timeline: the state now is "reviewed" (2).
      await reviewRow.getByRole('link', { name: /declaration/ }).click();
      await waitForPath(page, '/compliance/stream');
      assert.equal(new URL(page.url()).searchParams.get('id'), id);
      const state = visible(page.getByRole('region', { name: 'State' }));
      await eventually(() => fieldValue(state, 'status').innerText(), (s) => s === '2', { what: 'status 2 now' });

      // As of one millisecond before the review, in the browser's time: still "unprocessed" (1).
      const before = await page.evaluate((iso) => {
        const d = new Date(new Date(iso).getTime() - 1);
        const p = (n, w = 2) => String(n).padStart(w, '0');
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
      }, review.recordedAt);
      const asked = page.waitForRequest((r) => r.url().includes(`/api/v1/audit/streams/${id}?asOf=`));
      await field(page, 'As of').fill(before);
      // The picker's millisecond is sent as its last microsecond.
      const expected = new Date(new Date(review.recordedAt).getTime() - 1).toISOString().replace(/Z$/, '999Z');
      assert.equal(new URL((await asked).url()).searchParams.get('asOf'), expected);
      await eventually(() => fieldValue(state, 'status').innerText(), (s) => s === '1', { what: 'status 1 before the review' });
      assert.match(await state.innerText(), new RegExp(`version ${review.streamVersion - 1}\\)`));

      // "Now" brings the review back.
      await visible(page.getByRole('button', { name: 'Now' })).click();
      await eventually(() => fieldValue(state, 'status').innerText(), (s) => s === '2', { what: 'status 2 again' });

      // The diff between the first event and the review names the status change.
      await visible(page.getByRole('button', { name: 'Compare' })).click();
      const diff = visible(page.getByRole('table', { name: 'Diff' }));
      await diff.locator('[data-field="status"]').waitFor();
      assert.match(await diff.locator('[data-field="status"]').innerText(), /2/);

      // The chain page: verified up to a position at or past the review.
      await visible(page.getByRole('link', { name: 'Chain status' })).first().click();
      await waitForPath(page, '/compliance/chain');
      await eventually(
        async () => {
          await visible(page.getByRole('button', { name: 'Refresh' })).click();
          return Number(await visible(page.getByTestId('chained-to')).innerText());
        },
        (n) => n >= review.position,
        { what: `the chain past position ${review.position}`, timeout: 30_000, interval: 1_000 },
      );
      assert.match(await visible(page.getByTestId('public-key')).innerText(), /^[0-9a-f]{64}$/);
    }),
  );
});
