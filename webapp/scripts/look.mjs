// Development aid: screenshots of the main pages against a mocked API (the real API may not
// be running). Usage: npx vite preview --port 4173 & node scripts/look.mjs [outdir]
import { chromium } from 'playwright-core';

const base = process.env.BASE_URL ?? 'http://localhost:4173';
const out = process.argv[2] ?? '/tmp/shots';
const ok = (data) => ({ code: 200, message: 'ok', data, refreshed: false, accessToken: null });

const users = {
  acme: { role: 'CUSTOMER', username: 'acme', displayName: 'ACME Trading' },
  admin: { role: 'ADMIN', username: 'admin', displayName: 'Admin Li' },
};

async function mockApi(page, who) {
  await page.route('**/api/v1/health', (r) =>
    r.fulfill({ json: ok({ status: 'ok', mode: 'development' }) }),
  );
  await page.route('**/auth/login', (r) => r.fulfill({ json: ok(`token-${who}`) }));
  await page.route('**/auth/logout', (r) => r.fulfill({ json: ok(null) }));
  await page.route('**/api/v1/session', (r) =>
    r.fulfill({ json: ok({ userId: '1', ...users[who] }) }),
  );
  await page.route('**/api/v1/user-permissions', (r) =>
    r.fulfill({
      json: ok(
        [
          'declarations:management',
          'clearance:management',
          'customers:management',
          'staff:management',
          'roles:management',
          'ports:management',
        ].map((permissionCode) => ({ permissionCode, type: 'BUTTON' })),
      ),
    }),
  );
  await page.route('**/api/v1/staff/profile', (r) =>
    r.fulfill({
      json: ok({
        staffId: 'S0001',
        staffEmail: 'admin@example.com',
        staffName: 'Admin Li',
        roleList: [{ roleCode: 'ADMIN', sortNo: 1 }],
      }),
    }),
  );
  await page.route('**/api/v1/customer/profile', (r) =>
    r.fulfill({
      json: ok({
        username: 'acme',
        companyName: 'ACME Trading Co.',
        isLocked: false,
        email: 'ops@acme.test',
      }),
    }),
  );
  await page.route('**/api/v1/declarations/counts**', (r) => {
    const byStatus = [];
    for (const t of ['OB', 'OC', 'OD', 'IB', 'IC', 'ID'])
      for (const s of [0, 1, 2, 3, 4, 10, 11])
        byStatus.push({ declarationType: t, status: s, count: (t.charCodeAt(1) * (s + 3)) % 37 });
    const perDay = Array.from({ length: 30 }, (_, i) => {
      const d = new Date(Date.now() - (29 - i) * 86400000);
      return { date: d.toISOString().slice(0, 10).replaceAll('-', ''), count: ((i * 7) % 23) + 2 };
    });
    return r.fulfill({ json: ok({ byStatus, perDay }) });
  });
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const shot = async (page, name) => {
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${out}/${name}.png` });
  console.log(`${out}/${name}.png`, page.url());
};

for (const who of ['acme', 'admin']) {
  const context = await browser.newContext({ viewport: { width: 1366, height: 820 } });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && console.log('console:', m.text()));
  page.on('pageerror', (e) => console.log('pageerror:', e.message));
  await mockApi(page, who);
  const login = who === 'acme' ? '/login-c' : '/login-b';
  await page.goto(
    `${base}${who === 'acme' ? '/customs-clearance-supply/export/export-c?status=1' : login}`,
  );
  await page.waitForURL(`**${login}**`);
  await shot(page, `${who}-login`);
  await page.getByLabel(/用户名|Username/).fill(who);
  await page.getByLabel(/^密码|^Password/).fill('Demopass2026');
  await page.getByRole('button', { name: /^登录$|^Log in$/ }).click();
  await page.waitForURL(/welcome|export-c/);
  await shot(page, `${who}-after-login`);
  await page.goto(`${base}/`);
  await page.waitForURL(/welcome/);
  await shot(page, `${who}-welcome`);
  if (who === 'admin') {
    await page.getByRole('button', { name: '个人信息' }).click();
    await shot(page, `${who}-profile`);
    await page.keyboard.press('Escape');
    await page.goto(`${base}/platform-mgt/roles`);
    await shot(page, `${who}-roles`);
    // Keep-alive: the roles page stays mounted (hidden) while the port page is shown.
    await page.getByRole('link', { name: '口岸管理' }).click();
    await page.waitForURL('**/platform-mgt/port');
    const kept = await page.locator('h2').evaluateAll((els) =>
      els.map((e) => `${e.textContent}:${e.checkVisibility() ? 'visible' : 'hidden'}`),
    );
    console.log('kept alive:', kept.join(', '));
    await page.getByRole('button', { name: '退出登录' }).click();
    await shot(page, `${who}-logout-confirm`);
    await page.getByRole('button', { name: '确定' }).click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${out}/${who}-logout-overlay.png` });
    await page.waitForURL('**/login-b', { timeout: 5000 });
    await shot(page, `${who}-after-logout`);
  } else {
    await page.getByRole('button', { name: 'acme' }).click();
    await page.getByRole('menuitem', { name: '修改密码' }).click();
    await page.getByLabel(/^新密码/).fill('acme123456789');
    await page.getByLabel(/^确认新密码/).fill('Other12345678');
    await page.getByRole('button', { name: '确定' }).click();
    await shot(page, `${who}-password`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '切换语言' }).click();
    await page.getByRole('button', { name: /个人中心|Personal/ }).click();
    await shot(page, `${who}-english`);
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
    await page.goto(`${base}/customs-clearance-supply/import/import-d`);
    await shot(page, `${who}-dark`);
    await page.getByRole('button', { name: /联系我们|Contact us/ }).click();
    await shot(page, `${who}-contact`);
    await page.goto(`${base}/platform-mgt/roles`);
    await shot(page, `${who}-forbidden`);
  }
  await context.close();
}
await browser.close();
