// The compliance screens (issue 15): the auditor filters the whole event log to one
// declaration, opens its timeline, moves the as-of time back before its review and sees the
// earlier status; back on the filtered log, exports it, and the downloaded file verifies with
// `target/debug/clearway verify --export` (and fails, naming the line, with one byte changed);
// the chain page shows how far the chain is verified and runs a verification in the background.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { promisify } from 'node:util';
import { act, api, createSubmittedCExport, eventually, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { REPO_DIR, RESULTS_DIR, uniqueTrackingNumber } from '../lib/config.mjs';
import { field, login, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

/** The server binary the suite runs against (scripts/test.sh starts it). */
const CLEARWAY_BIN = path.join(process.env.CARGO_TARGET_DIR || path.join(REPO_DIR, 'target'), 'debug', 'clearway');

/** `clearway verify --export FILE --public-key KEY`: its exit status and output. */
async function verifyExport(file, key) {
  try {
    const { stdout } = await promisify(execFile)(CLEARWAY_BIN, ['verify', '--export', file, '--public-key', key]);
    return { code: 0, out: stdout };
  } catch (e) {
    return { code: e.code, out: `${e.stdout}${e.stderr}` };
  }
}

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
        // With the customs channel on, declaring also writes a message: wait for it too, so
        // the page and this list count the same events.
        (records) =>
          records.some((r) => r.eventType === 'DeclarationReviewed') &&
          (!process.env.CLEARWAY_CUSTOMS_DIR ||
            records.some((r) => r.eventType === 'DeclarationCustomsMessageSent')),
        { what: 'the review (and its customs message) in the audit log' },
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

      // Back on the log filtered to the declaration: export it; the file verifies offline.
      await page.goBack();
      await waitForPath(page, '/compliance/log');
      await reviewRow.waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 60_000 }),
        visible(page.getByRole('button', { name: 'Download signed log' })).click(),
      ]);
      await mkdir(RESULTS_DIR, { recursive: true });
      const saved = path.join(RESULTS_DIR, 'audit-export.jsonl');
      await download.saveAs(saved);
      assert.match(download.suggestedFilename(), /^audit-export-\d{4}-\d{4}\.jsonl$/);
      const text = await readFile(saved, 'utf8');
      const lines = text.trim().split('\n').map((l) => JSON.parse(l));
      assert.equal(lines[0].t, 'manifest');
      assert.equal(lines[0].filter.trackingNumber, tracking);
      assert.deepEqual(
        lines.filter((l) => l.t === 'event').map((l) => Number(l.position)).sort((a, b) => a - b),
        events.map((e) => e.position).sort((a, b) => a - b),
      );
      const { publicKey } = (await api('GET', '/api/v1/audit/public-key')).data;
      const held = await verifyExport(saved, publicKey);
      assert.equal(held.code, 0, held.out);
      assert.match(held.out, new RegExp(`verified ${events.length} events`));
      assert.match(held.out, /OK\n$/);
      // One byte of the review's line changed: refused, naming that line.
      const n = lines.findIndex((l) => l.t === 'event' && Number(l.position) === review.position);
      const edited = text.split('\n');
      edited[n] = edited[n].replace('DeclarationReviewed', 'DeclarationReviewee');
      const tampered = path.join(RESULTS_DIR, 'audit-export-tampered.jsonl');
      await writeFile(tampered, edited.join('\n'));
      const broken = await verifyExport(tampered, publicKey);
      assert.equal(broken.code, 1, broken.out);
      assert.match(broken.out, new RegExp(`^BROKEN at line ${n + 1}: changed event`));

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

      // Verify now: the run's progress, then its result (the chain holds).
      await visible(page.getByRole('button', { name: 'Verify now' })).click();
      const runCard = page.getByTestId('verification');
      await eventually(
        async () => runCard.getAttribute('data-state'),
        (state) => state === 'held',
        { what: 'the verification run to hold', timeout: 60_000, interval: 500 },
      );
      assert.ok(Number(await visible(page.getByTestId('verified-to')).innerText()) >= review.position);
      assert.match(await visible(page.getByTestId('verification-progress')).innerText(), /^(\d+) of \1 chain rows verified$/);
    }),
  );
});
