// HS code suggestions in the declaration form (issue 14): a customer types into a goods
// line's HS code field, the list shows codes with their description, heading path and
// source from the real endpoint (the HS 2022 nomenclature `clearway seed` indexed), and
// choosing one fills the field; with the field empty, the goods name is searched.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { api, tokenFor } from '../lib/api.mjs';
import { useBrowser, testOptions } from '../lib/browser.mjs';
import { field, login, screenshot, visible, waitForPath } from '../lib/ui.mjs';

const { withPage } = useBrowser();

const CUSTOMER_LIST = '/customs-clearance-supply/export/export-c';

describe('HS code suggestions', () => {
  test('the goods line HS field suggests codes as the user types and from the goods name', testOptions(), (t) =>
    withPage(t, async (page) => {
      // The endpoint itself, as the customer: the nomenclature is indexed by `clearway seed`.
      const token = await tokenFor('acme');
      const direct = await api('GET', '/api/v1/hs-suggestions', { token, query: { q: 'cotton t-shirt knitted', limit: 8 } });
      assert.ok(direct.data.some((s) => s.code === '610910'), JSON.stringify(direct.data));

      await login(page, 'acme', { t });
      await page.goto(CUSTOMER_LIST);
      await visible(page.getByRole('button', { name: 'New declaration' })).click();
      await waitForPath(page, '/customs-clearance-supply/detail-c/1');

      const hs = field(page, 'HS code 1');
      await hs.click();
      await hs.pressSequentially('cotton t-shirt knitted', { delay: 20 });
      // Acme's product library (the demo's cotton T-shirt, 6109100000) comes first; the
      // nomenclature's subheading is among the next.
      await visible(page.getByRole('option').filter({ hasText: 'Product library' })).first().waitFor();
      const option = visible(
        page.getByRole('option').filter({ hasText: 'HS 2022 nomenclature' }).filter({ hasText: /^\s*610910/ }),
      ).first();
      await option.waitFor();
      const text = (await option.textContent()) ?? '';
      assert.match(text, /T-shirts, singlets and other vests/);
      assert.match(text, /HS 2022 nomenclature/);
      assert.match(text, /61 .* > 6109 .* > 610910/s, 'the heading path');
      await screenshot(page, 'hs-suggestions-goods-line');
      await option.click();
      assert.equal(await hs.inputValue(), '610910');

      // Empty field, goods name filled: the goods name is searched (in Chinese, through the glossary).
      await hs.fill('');
      await field(page, 'Goods name 1').fill('蓝牙耳机');
      await hs.click();
      await visible(page.getByText('Suggested for “蓝牙耳机”')).waitFor();
      await visible(page.getByRole('option').filter({ hasText: '851830' })).first().waitFor();
    }),
  );
});
