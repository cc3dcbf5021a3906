// Platform management (issue "Identity, access and administration"): the permission tags
// keep an operator out of role management; an admin creates an employee, edits a role's
// permissions, adds a port with a facility SLIC, and reads the audit log.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { eventually } from '../lib/api.mjs';
import {
  createStaff,
  findStaff,
  freePortCode,
  randomSlic,
  roleCodes,
  runTag,
  setRoleCodes,
  slicInfo,
} from '../lib/admin.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { field, login, pathname, pickOption, screenshot, settle, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

/** The code the role tests take away from OPERATOR and give back. */
const CODE = 'customers:maintain';
const CODE_LABEL = 'Maintain customers';

describe('platform management', () => {
  test('an operator cannot open role management by URL and has no menu entry for it', testOptions(), (t) =>
    withPage(t, async (page) => {
      await login(page, 'operator', { t });
      const sidebar = page.locator('nav, aside').first();
      await sidebar.waitFor();
      assert.equal(await visible(page.getByRole('link', { name: 'Role management' })).count(), 0);
      assert.equal(await visible(page.getByText('Platform management', { exact: true })).count(), 0);

      await page.goto('/platform-mgt/roles');
      await waitForPath(page, '/403');
      await page.goto('/platform-mgt/audit');
      await waitForPath(page, '/403');
      assert.equal(pathname(page), '/403');
    }),
  );

  test('an admin adds an employee on /platform-mgt/add and sees the new row in the list', testOptions(), (t) =>
    withPage(t, async (page) => {
      const tag = runTag();
      const staffId = `E2E${tag}`.slice(0, 20);
      const email = `e2e.${tag.toLowerCase()}@clearway.example.com`;
      await login(page, 'admin', { t });
      // Through the menu: open the group, then its entry.
      await visible(page.getByText('Platform management', { exact: true })).first().click();
      await visible(page.getByRole('link', { name: 'Staff management' })).first().click();
      await waitForPath(page, '/platform-mgt/employee');
      await visible(page.getByRole('button', { name: 'Add employee' })).click();
      await waitForPath(page, '/platform-mgt/add');

      // The form refuses an empty submit on its fields.
      await visible(page.getByRole('button', { name: 'Create' })).click();
      await visible(page.getByText('Staff ID is required')).waitFor();

      await field(page, 'Staff ID').fill(staffId);
      await field(page, 'Name').fill(`E2E Employee ${tag}`);
      await field(page, 'E-mail').fill(email);
      await visible(page.getByRole('checkbox', { name: 'Operator (OPERATOR)' })).check();
      // An admin cannot grant SUPER_ADMIN.
      assert.equal(await visible(page.getByRole('checkbox', { name: 'Super admin (SUPER_ADMIN)' })).isDisabled(), true);
      await screenshot(page, 'platform-add-employee');
      await visible(page.getByRole('button', { name: 'Create' })).click();

      await waitForPath(page, '/platform-mgt/employee');
      const row = visible(page.locator('tr', { hasText: staffId }));
      await row.first().waitFor();
      assert.match(await row.first().innerText(), new RegExp(email.replace(/\./g, '\\.')));
      assert.match(await row.first().innerText(), /operator/i);
      await screenshot(page, 'platform-employee-list');

      const [record] = await findStaff(email);
      assert.equal(record?.staffId, staffId);
      assert.deepEqual(record.roleList.map((r) => r.roleCode ?? r), ['OPERATOR']);
    }),
  );

  test('an admin maintains an employee: a taken e-mail shows on its field, roles and disabling apply', testOptions(), (t) =>
    withPage(t, async (page) => {
      const tag = runTag();
      const email = `e2e.m.${tag.toLowerCase()}@clearway.example.com`;
      await createStaff({ staffId: `M${tag}`.slice(0, 20), staffName: `Maintained ${tag}`, staffEmail: email, roles: ['OPERATOR'] });
      await login(page, 'admin', { t });
      await page.goto(`/platform-mgt/employee?keyword=${encodeURIComponent(email)}`);
      const row = () => visible(page.locator('tr', { hasText: email })).first();
      await row().waitFor();

      // Maintain: another employee's e-mail is refused on the e-mail field; a new name saves.
      await row().getByRole('button', { name: 'Maintain' }).click();
      let dialog = visible(page.getByRole('dialog'));
      await field(dialog, 'E-mail').fill('operator@clearway.example.com');
      await dialog.getByRole('button', { name: 'Save' }).click();
      const emailError = dialog.locator('.mantine-InputWrapper-error');
      await emailError.first().waitFor();
      assert.match(await emailError.first().innerText(), /e-mail|email/i);
      await field(dialog, 'E-mail').fill(email);
      await field(dialog, 'Name').fill(`Renamed ${tag}`);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });
      await visible(page.locator('tr', { hasText: `Renamed ${tag}` })).first().waitFor();

      // Assign roles: add ADMIN (SUPER_ADMIN is not the admin's to grant).
      await row().getByRole('button', { name: 'Assign roles' }).click();
      dialog = visible(page.getByRole('dialog'));
      assert.equal(await dialog.getByRole('checkbox', { name: 'Super admin (SUPER_ADMIN)' }).isDisabled(), true);
      await dialog.getByRole('checkbox', { name: 'Admin (ADMIN)' }).check();
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });

      // Disable, with a reason.
      await row().getByRole('button', { name: `More actions ${email}` }).click();
      await visible(page.getByRole('menuitem', { name: 'Disable' })).click();
      dialog = visible(page.getByRole('dialog'));
      await field(dialog, 'Reason (optional)').fill('left the company');
      await dialog.getByRole('button', { name: 'OK' }).click();
      await dialog.waitFor({ state: 'detached' });
      await visible(page.locator('tr', { hasText: email }).filter({ hasText: /disabled/i })).first().waitFor();
      await screenshot(page, 'platform-employee-maintained');

      const [record] = await eventually(
        () => findStaff(email),
        ([r]) => r?.status === 'disabled',
        { what: `${email} disabled` },
      );
      assert.equal(record.staffName, `Renamed ${tag}`);
      assert.deepEqual(record.roleList.map((r) => r.roleCode ?? r).sort(), ['ADMIN', 'OPERATOR']);
    }),
  );

  test('an admin unticks a permission of OPERATOR on /platform-mgt/roles, saves, and restores it', testOptions(), async (t) => {
    const before = await roleCodes('OPERATOR');
    assert.ok(before.codes.includes(CODE), `OPERATOR holds ${CODE} by default`);
    try {
      await withPage(t, async (page) => {
        await login(page, 'admin', { t });
        await page.goto('/platform-mgt/roles');
        const card = visible(page.getByRole('region', { name: 'OPERATOR' }));
        const box = card.getByRole('checkbox', { name: CODE_LABEL });
        await box.waitFor();
        assert.equal(await box.isChecked(), true);
        // SUPER_ADMIN is read-only.
        const sa = visible(page.getByRole('region', { name: 'SUPER_ADMIN' }));
        await sa.getByText('cannot be edited').waitFor();
        assert.equal(await sa.getByRole('button', { name: 'Save' }).count(), 0);

        await box.uncheck();
        await card.getByRole('button', { name: 'Save' }).click();
        await visible(page.getByText('Permissions of OPERATOR saved')).waitFor();
        await eventually(
          () => roleCodes('OPERATOR'),
          (r) => !r.codes.includes(CODE),
          { what: `OPERATOR without ${CODE}` },
        );
        await settle(page);
        await screenshot(page, 'platform-roles');

        // Back again, through the page.
        const again = visible(page.getByRole('region', { name: 'OPERATOR' })).getByRole('checkbox', { name: CODE_LABEL });
        assert.equal(await again.isChecked(), false);
        await again.check();
        await visible(page.getByRole('region', { name: 'OPERATOR' })).getByRole('button', { name: 'Save' }).click();
        await eventually(
          () => roleCodes('OPERATOR'),
          (r) => r.codes.includes(CODE),
          { what: `OPERATOR with ${CODE} again` },
        );
      });
    } finally {
      const now = await roleCodes('OPERATOR');
      if (!now.codes.includes(CODE)) await setRoleCodes('OPERATOR', [...now.codes, CODE]);
    }
  });

  test('an admin adds a port and a facility SLIC on /platform-mgt/port', testOptions(), (t) =>
    withPage(t, async (page) => {
      const code = await freePortCode();
      const declarationSlic = randomSlic();
      const facilitySlic = randomSlic();
      await login(page, 'admin', { t });
      await page.goto('/platform-mgt/port');
      await visible(page.getByRole('button', { name: 'Add port' })).click();
      const dialog = visible(page.getByRole('dialog'));
      await field(dialog, 'Port code').fill(code);
      await field(dialog, 'Port name').fill(`E2E port ${code}`);
      await field(dialog, 'English name').fill(`E2E Port ${code}`);
      await field(dialog, 'Declaration SLIC').fill(declarationSlic);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await dialog.waitFor({ state: 'detached' });

      await page.goto(`/platform-mgt/port?keyword=${code}`);
      const row = visible(page.locator(`tr[data-port="${code}"]`));
      await row.waitFor();
      assert.match(await row.innerText(), new RegExp(declarationSlic));
      await row.getByRole('button', { name: 'Add facility' }).click();
      const slicDialog = visible(page.getByRole('dialog'));
      await field(slicDialog, 'Facility name').fill(`E2E facility ${code}`);
      await field(slicDialog, 'Facility SLIC').fill(facilitySlic);
      await slicDialog.getByRole('button', { name: 'Save' }).click();
      await slicDialog.waitFor({ state: 'detached' });

      // The row is expanded: the facility shows under its port.
      await visible(page.locator(`tr[data-slic="${facilitySlic}"]`)).waitFor();
      await screenshot(page, 'platform-ports');

      const port = await eventually(
        async () => (await slicInfo()).find((p) => p.portCode === code),
        (p) => p && p.slicInfoList.some((s) => s.upsFacilitySlic === facilitySlic),
        { what: `port ${code} with facility ${facilitySlic}` },
      );
      assert.equal(port.declarationSlic, declarationSlic);

      // The admin's export dialog offers the new port, and under it only its facility SLIC.
      await page.reload();
      await visible(page.getByRole('button', { name: 'Download report' })).first().click();
      const exportDialog = visible(page.getByRole('dialog'));
      const portSelect = field(exportDialog, 'Port');
      assert.equal(await portSelect.inputValue(), 'All ports');
      await pickOption(page, portSelect, code, new RegExp(`^${code} `));
      const slicSelect = field(exportDialog, 'SLIC');
      assert.equal(await slicSelect.inputValue(), 'All SLIC');
      await slicSelect.click();
      const options = visible(page.getByRole('option'));
      await options.filter({ hasText: facilitySlic }).first().waitFor();
      assert.deepEqual(await options.allInnerTexts(), ['All SLIC', `${facilitySlic} · E2E facility ${code}`]);
      await page.keyboard.press('Escape');
      await screenshot(page, 'platform-export-dialog-ports');
    }),
  );

  test('the audit log shows a role permission change: the code removed and added, the whole change kept', testOptions(), async (t) => {
    const before = await roleCodes('OPERATOR');
    assert.ok(before.codes.includes(CODE));
    await setRoleCodes('OPERATOR', before.codes.filter((c) => c !== CODE));
    await setRoleCodes('OPERATOR', [...before.codes]);
    await withPage(t, async (page) => {
      await login(page, 'admin', { t });
      await page.goto('/platform-mgt/audit?subjectType=role&action=RolePermissionsChanged');
      const table = visible(page.getByRole('table', { name: 'Audit log' }));
      await table.waitFor();
      // The removal shows the one code that went; its line keeps the whole change, in
      // which the old set held the code and the new one does not.
      const removal = table.locator('tr').filter({ hasText: `permissions: - ${CODE}` });
      await removal.first().waitFor();
      const text = await removal.first().innerText();
      assert.match(text, /OPERATOR/);
      assert.match(text, /Role permissions changed/);
      assert.match(text, /Adam Admin|admin/);
      const full = await removal.first().locator('[title^="permissions:"]').first().getAttribute('title');
      const [from, to] = (full ?? '').split(' -> ');
      assert.ok(from.includes(CODE) && to !== undefined && !to.includes(CODE), `the whole change: ${full}`);
      // And the restore shows it coming back.
      await table.locator('tr').filter({ hasText: `permissions: + ${CODE}` }).first().waitFor();
      await screenshot(page, 'platform-audit');
    });
  });
});
