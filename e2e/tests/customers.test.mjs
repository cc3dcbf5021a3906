// The customer archive in a real browser:
//   (a) an operator creates a customer on /customers-profile and sees its initial password
//       once, finds it by search, opens its detail page, edits the city, then files a class
//       C export draft for it from its page; the draft is the customer's, in the list too;
//   (b) an operator has no delete button (customers:delete is ADMIN and up); an admin deletes
//       a customer without declarations.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventually, listDeclarations } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { uniqueTrackingNumber } from '../lib/config.mjs';
import { createCustomer, findCustomer, getCustomerRaw, uniqueCustomerUsername } from '../lib/customers.mjs';
import { field, login, screenshot, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();
const ARCHIVE = '/customers-profile';

/** Types a keyword into the archive's filter and waits for the row of `username`. */
async function searchArchive(page, username) {
  await field(page, 'Keyword').fill(username);
  await visible(page.getByRole('button', { name: 'Search', exact: true })).click();
  await page.waitForURL((u) => new URL(u).searchParams.get('keyword') === username);
  const link = visible(page.getByRole('link', { name: username, exact: true }));
  await link.waitFor();
  return link;
}

describe('customer archive', () => {
  test('(a) an operator creates a customer, edits it and files a C export draft for it', testOptions(), (t) =>
    withPage(t, async (page) => {
      const username = uniqueCustomerUsername('e2ec');
      const company = `E2E Archive ${username}`;
      const tracking = uniqueTrackingNumber('E2EA');
      await login(page, 'operator', { t });
      await page.goto(ARCHIVE);
      await visible(page.getByRole('heading', { name: 'Customer archive' })).waitFor();

      // New customer: the client checks first (nothing is sent while the form is wrong).
      await visible(page.getByRole('button', { name: 'New customer' })).click();
      const dialog = visible(page.getByRole('dialog', { name: 'New customer' }));
      await dialog.waitFor();
      await field(dialog, 'Username').fill(username);
      await field(dialog, 'Postal code').fill('2001');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();
      await dialog.getByText('Company name cannot be empty').waitFor();
      await dialog.getByText('Postal code must be 6 digits').waitFor();
      assert.equal(await findCustomer(username), null, 'an invalid customer was not created');

      await field(dialog, 'Company name').fill(company);
      await field(dialog, 'Postal code').fill('200120');
      await field(dialog, 'City').fill('Shanghai');
      // The multi-select's own input is a sliver inside its pill box: click the box.
      await field(dialog, 'Declaration types').click({ force: true });
      await visible(page.getByRole('option', { name: /Export class C/ })).first().click();
      await field(dialog, 'City').click(); // closes the options
      await screenshot(page, 'customer-new');
      await dialog.getByRole('button', { name: 'Create', exact: true }).click();

      // The initial password, once.
      const pw = visible(page.getByRole('dialog', { name: 'Initial password' }));
      await pw.waitFor();
      await pw.getByText(/shown only this once/).waitFor();
      const password = (await pw.getByTestId('initial-password').innerText()).trim();
      assert.ok(password.length >= 10, `an initial password is shown (${password})`);
      await screenshot(page, 'customer-initial-password');
      await pw.getByRole('button', { name: 'I have noted it' }).click();
      await pw.waitFor({ state: 'detached' });

      const created = await eventually(() => findCustomer(username, { staff: 'operator' }), (c) => c !== null, {
        what: 'the new customer in the archive',
      });
      assert.equal(created.companyName, company);
      assert.deepEqual(created.declarationTypes, ['OC']);
      assert.equal(created.accountCount, 1, 'the login was created with the customer');

      // Found by search, opened.
      const link = await searchArchive(page, username);
      await screenshot(page, 'customer-archive');
      await link.click();
      await waitForPath(page, `${ARCHIVE}/customers-detail`);
      assert.equal(new URL(page.url()).searchParams.get('id'), created.customerId);
      await visible(page.getByRole('heading', { name: company })).waitFor();
      const accounts = visible(page.getByRole('table', { name: 'Login accounts' }));
      await accounts.getByText(username, { exact: true }).waitFor();

      // Maintain: the city.
      await visible(page.getByRole('button', { name: 'Maintain', exact: true })).click();
      const edit = visible(page.getByRole('dialog', { name: `Maintain customer ${username}` }));
      await edit.waitFor();
      assert.equal(await field(edit, 'Username').isDisabled(), true, 'the username is fixed');
      await field(edit, 'City').fill('Hangzhou');
      await edit.getByRole('button', { name: 'Save', exact: true }).click();
      await edit.waitFor({ state: 'detached' });
      await visible(page.getByText('Hangzhou', { exact: true })).first().waitFor();
      const edited = await eventually(() => findCustomer(username), (c) => c?.city === 'Hangzhou', {
        what: 'the new city in the archive',
      });
      assert.ok(edited.version > created.version);
      await screenshot(page, 'customer-detail');

      // File a class C export for it: the form opens with the customer chosen.
      await visible(page.getByRole('link', { name: 'File a declaration Export class C' })).click();
      await waitForPath(page, '/customers-profile/detail-c/1');
      assert.equal(new URL(page.url()).searchParams.get('customerId'), created.customerId);
      const owner = field(page, 'Customer');
      await page.waitForFunction(
        ([name]) => [...document.querySelectorAll('input')].some((i) => i.value.startsWith(name)),
        [username],
      );
      assert.match(await owner.inputValue(), new RegExp(`^${username}`));
      await field(page, 'Tracking number').fill(tracking);
      await visible(page.getByRole('button', { name: 'Save draft' })).click();
      await page.waitForURL((u) => new URL(u).searchParams.has('id'));
      const rows = await eventually(
        async () => (await listDeclarations('operator', { declarationType: 'OC', trackingNumber: tracking })).records,
        (r) => r.length === 1,
        { what: 'the draft in the list' },
      );
      assert.equal(rows[0].username, username, 'the draft belongs to the new customer');
      assert.equal(rows[0].customerId, created.customerId);
      assert.equal(rows[0].status, 0);

      // The customer's declarations, from the detail page's link (the list's username filter).
      await page.goto(`${ARCHIVE}/customers-detail?id=${created.customerId}`);
      const decls = visible(page.getByRole('link', { name: 'View declarations' })).first();
      await decls.click();
      await page.waitForURL((u) => new URL(u).searchParams.get('username') === username);
      const row = visible(page.getByRole('row').filter({ has: page.getByRole('link', { name: tracking }) }));
      await row.first().waitFor();
      await row.first().getByText(username, { exact: true }).waitFor();
      await screenshot(page, 'customer-declarations');
    }),
  );

  test('(b) only an admin may delete: the operator has no delete button, the admin deletes', testOptions(), async (t) => {
    const username = uniqueCustomerUsername('e2ed');
    const { id, position } = await createCustomer(username);
    await eventually(() => findCustomer(username, { minPosition: position }), (c) => c !== null, {
      what: 'the customer made through the API',
    });

    await withPage(t, async (page) => {
      await login(page, 'operator', { t });
      await page.goto(ARCHIVE);
      await searchArchive(page, username);
      await visible(page.getByRole('button', { name: `Maintain ${username}` })).waitFor();
      assert.equal(await visible(page.getByRole('button', { name: `Delete ${username}` })).count(), 0);
      await page.goto(`${ARCHIVE}/customers-detail?id=${id}`);
      await visible(page.getByRole('button', { name: 'Maintain', exact: true })).waitFor();
      assert.equal(await visible(page.getByRole('button', { name: 'Delete', exact: true })).count(), 0);
    });

    await withPage(t, async (page) => {
      await login(page, 'admin', { t });
      await page.goto(ARCHIVE);
      await searchArchive(page, username);
      await visible(page.getByRole('button', { name: `Delete ${username}` })).click();
      const dialog = visible(page.getByRole('dialog', { name: 'Delete' }));
      await dialog.getByText(new RegExp(`Delete customer ${username}`)).waitFor();
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      await visible(page.getByRole('link', { name: username, exact: true })).waitFor({ state: 'detached' });
      assert.equal(await findCustomer(username), null, 'the deleted customer left the archive');
      const { status, envelope } = await getCustomerRaw(id);
      assert.ok(
        status === 404 || envelope?.data?.status === 'deleted',
        `the deleted customer cannot be opened as a live one (HTTP ${status}, ${JSON.stringify(envelope?.data)?.slice(0, 200)})`,
      );
    });
  });
});
