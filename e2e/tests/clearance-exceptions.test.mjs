// The clearance-exception round trip of issue 12 in a real browser, one step per test, in
// order:
//   (a) an operator raises an exception on a reviewed declaration (status 2) asking for a
//       commercial invoice, and notifies the customer by e-mail (the message arrives in
//       maildev when MAILDEV_URL names its web API, e.g. http://127.0.0.1:1080);
//   (b) the customer opens it (acknowledged), uploads the invoice and confirms;
//   (c) the operator approves it: the exception is "review completed", the declaration is
//       back in status 2, and both histories show every step.
//   (d) a recipient without an account answers another exception through the link in the
//       notice e-mail (/temporarily?token=...): sees what is asked, uploads, sends; the link
//       is then used, and the history names "recipient via link" (needs MAILDEV_URL, which
//       scripts/test.sh sets).
// The labels are the web app's English ones.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, test } from 'node:test';
import { act, api, createSubmittedCExport, eventually, getDeclaration, getHistory, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { RESULTS_DIR, uniqueTrackingNumber } from '../lib/config.mjs';
import { field, login, screenshot, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const MAILDEV_URL = (process.env.MAILDEV_URL || '').replace(/\/+$/, '');
const RECIPIENT = 'buyer@example.com';

const run = {
  tracking: uniqueTrackingNumber('E2EX'),
  declarationId: null,
  exceptionId: null,
};

async function getException(username, id) {
  return (await api('GET', `/api/v1/clearance-exceptions/${id}`, { token: await tokenFor(username) })).data;
}

async function exceptionHistory(username, id) {
  return (await api('GET', `/api/v1/clearance-exceptions/${id}/history`, { token: await tokenFor(username) })).data;
}

/** A one-page PDF, enough for a content sniffer. */
function tinyPdf() {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
}

describe('clearance exceptions', () => {
  test('(a) the operator raises an exception asking for a commercial invoice and notifies the customer', testOptions(), (t) =>
    withPage(t, async (page) => {
      const { id } = await createSubmittedCExport('acme', run.tracking);
      await act('operator', id, ['review']);
      await eventually(() => getDeclaration('operator', id), (d) => d.status === 2, { what: 'status 2' });
      run.declarationId = id;

      await login(page, 'operator', { t });
      await page.goto(`/customs-clearance/detail-c/1?id=${id}`);
      await visible(page.getByRole('link', { name: 'Raise clearance exception' })).click();
      await waitForPath(page, '/clearance-exception/createException');
      await visible(page.getByText(run.tracking, { exact: true })).first().waitFor();

      await visible(page.getByLabel('Commercial invoice')).check();
      await field(page, 'Description 1').fill('The commercial invoice is missing');
      await field(page, 'Recipient e-mail').fill(RECIPIENT);
      await field(page, 'Summary').fill('Please upload the commercial invoice of this shipment');
      await screenshot(page, 'exception-create');
      await visible(page.getByRole('button', { name: 'Create this exception' })).click();

      await page.waitForURL((u) => new URL(u).pathname === '/clearance-exception/detail');
      run.exceptionId = new URL(page.url()).searchParams.get('id');
      await visible(page.getByText('Pending', { exact: true })).first().waitFor();
      assert.equal((await getDeclaration('operator', id)).status, 4, 'the declaration waits in status 4');

      await visible(page.getByRole('button', { name: 'Notify customer' })).click();
      await visible(page.getByRole('dialog')).getByRole('button', { name: 'Notify customer' }).click();
      await visible(page.getByText('Customer notified', { exact: true })).first().waitFor();
      await screenshot(page, 'exception-detail-staff');

      if (MAILDEV_URL) {
        const mails = await eventually(
          async () => (await fetch(`${MAILDEV_URL}/email`)).json(),
          (list) => list.some((m) => (m.to ?? []).some((to) => to.address === RECIPIENT) && String(m.text ?? m.html).includes(run.tracking)),
          { timeout: 60_000, what: 'the notice in maildev' },
        );
        assert.ok(mails.length > 0);
      } else {
        t.diagnostic('MAILDEV_URL not set: the e-mail itself was not checked');
      }
    }),
  );

  test('(b) the customer opens it, uploads the invoice and confirms', testOptions(), (t) =>
    withPage(t, async (page) => {
      assert.ok(run.exceptionId, '(a) raised no exception');
      await login(page, 'acme', { t });
      await page.goto('/customer-exception/export');
      await visible(page.getByRole('link', { name: run.tracking })).click();
      await waitForPath(page, '/customer-exception/detail');
      await visible(page.getByText('Commercial invoice', { exact: true })).first().waitFor();
      // Opening it is the acknowledgement (2 -> 3).
      await visible(page.getByText('Awaiting customer confirmation', { exact: true })).first().waitFor();

      await mkdir(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, 'commercial-invoice.pdf');
      await writeFile(file, tinyPdf());
      const chooser = page.waitForEvent('filechooser');
      await visible(page.getByRole('button', { name: 'Upload Commercial invoice' })).click();
      await (await chooser).setFiles(file);
      await visible(page.getByText('commercial-invoice.pdf', { exact: true })).first().waitFor();

      await visible(page.getByRole('button', { name: 'All supplied, send for review' })).click();
      await visible(page.getByRole('dialog')).getByRole('button', { name: 'All supplied, send for review' }).click();
      await visible(page.getByText('Awaiting review', { exact: true })).first().waitFor();
      await screenshot(page, 'exception-detail-customer');
    }),
  );

  test('(c) the operator approves; the declaration is back in status 2 and both histories show every step', testOptions(), (t) =>
    withPage(t, async (page) => {
      assert.ok(run.exceptionId, '(a) raised no exception');
      await login(page, 'operator', { t });
      await page.goto(`/clearance-exception/detail?id=${run.exceptionId}`);
      await visible(page.getByRole('button', { name: 'Approve' })).click();
      await visible(page.getByRole('dialog')).getByRole('button', { name: 'Approve' }).click();
      await visible(page.getByText('Review completed', { exact: true })).first().waitFor();

      const e = await eventually(() => getException('operator', run.exceptionId), (x) => x.status === 6, { what: 'exception status 6' });
      assert.equal(e.documents.length, 1);
      const d = await eventually(() => getDeclaration('operator', run.declarationId), (x) => x.status === 2, { what: 'declaration back in 2' });
      assert.equal(d.status, 2);

      const steps = (await exceptionHistory('operator', run.exceptionId)).map((h) => h.action);
      for (const action of ['raise', 'notify', 'acknowledge', 'upload', 'respond', 'approve']) {
        assert.ok(steps.includes(action), `exception history has ${action}: ${steps}`);
      }
      const history = visible(page.getByRole('region', { name: 'History' }));
      for (const text of ['Exception raised', 'Customer notified', 'Customer saw the notice', 'File uploaded', 'Supplied', 'Approved']) {
        await history.getByText(text, { exact: true }).first().waitFor();
      }
      const declarationSteps = (await getHistory('operator', run.declarationId)).map((h) => [h.fromStatus, h.toStatus]);
      assert.ok(declarationSteps.some(([from, to]) => from === 2 && to === 4), `declaration went 2 -> 4: ${JSON.stringify(declarationSteps)}`);
      assert.ok(declarationSteps.some(([from, to]) => from === 4 && to === 2), `declaration came back 4 -> 2: ${JSON.stringify(declarationSteps)}`);
      await screenshot(page, 'exception-approved');
    }),
  );

  test('(d) a recipient answers through the link in the notice, without an account', testOptions(), (t) =>
    withPage(t, async (page) => {
      if (!MAILDEV_URL) {
        t.skip('MAILDEV_URL not set: no notice e-mail to take the link from');
        return;
      }
      const tracking = uniqueTrackingNumber('E2EL');
      const recipient = `link-${tracking.toLowerCase()}@example.com`;
      const { id: declarationId } = await createSubmittedCExport('acme', tracking);
      const operator = await tokenFor('operator');
      const raised = await api('POST', '/api/v1/clearance-exceptions', {
        token: operator,
        body: {
          declarationId,
          exceptionDetails: [{ exceptionCode: 'E01', exceptionDescription: 'Commercial invoice missing' }],
          isCommercialInvoiceChecked: true,
          sendToEmail: true,
          notificationContact: { recipientEmail: recipient },
          exceptionSummary: 'Please send the commercial invoice',
        },
      });
      const exceptionId = raised.data.id;
      await api('POST', `/api/v1/clearance-exceptions/${exceptionId}/notify`, { token: operator, body: {} });

      const mails = await eventually(
        async () => (await fetch(`${MAILDEV_URL}/email`)).json(),
        (list) => list.some((m) => (m.to ?? []).some((to) => to.address === recipient)),
        { timeout: 60_000, what: 'the notice to the recipient in maildev' },
      );
      const text = String(mails.find((m) => (m.to ?? []).some((to) => to.address === recipient)).text);
      const link = text.match(/https?:\/\/\S+\/temporarily\?token=[A-Za-z0-9_.-]+/)?.[0];
      assert.ok(link, `a recipient link in the notice: ${text}`);

      // No sign-in: the link alone opens the request.
      await page.goto(new URL(link).pathname + new URL(link).search);
      await visible(page.getByText(tracking, { exact: false })).first().waitFor();
      await visible(page.getByText('Commercial invoice', { exact: true })).first().waitFor();
      await mkdir(RESULTS_DIR, { recursive: true });
      const file = path.join(RESULTS_DIR, 'invoice-by-link.pdf');
      await writeFile(file, tinyPdf());
      const chooser = page.waitForEvent('filechooser');
      await visible(page.getByRole('button', { name: 'Upload Commercial invoice' })).click();
      await (await chooser).setFiles(file);
      await visible(page.getByText('invoice-by-link.pdf', { exact: true })).first().waitFor();
      await screenshot(page, 'exception-recipient-link');
      await visible(page.getByRole('button', { name: 'Send my answer' })).click();
      await visible(page.getByText(/Your answer was received/)).waitFor();

      const e = await eventually(() => getException('operator', exceptionId), (x) => x.status === 4, { what: 'awaiting review' });
      assert.equal(e.documents.length, 1);
      const byLink = (await exceptionHistory('operator', exceptionId)).filter((h) => h.actor?.name === 'recipient via link').map((h) => h.action);
      for (const action of ['upload', 'acknowledge', 'respond']) {
        assert.ok(byLink.includes(action), `${action} by the link: ${byLink}`);
      }

      // The link is used: opening it again says so.
      await page.goto(new URL(link).pathname + new URL(link).search);
      await visible(page.getByText(/already been used/)).waitFor();
    }),
  );
});
