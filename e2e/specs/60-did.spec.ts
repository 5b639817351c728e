import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, unique } from '../support/api';
import { engineSettled, pick, randomIp } from '../support/switch';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * Issue 14, browser proof of the DID module: a vendor's range imported on DID Upload, numbers sold
 * to a client on the DID Repository (with the history of a number), an inbound call routed in the
 * call simulation's DID tab, the client buying and releasing a number in its portal, and a month
 * charged once by the charge job.
 *
 * Prepared over the API: the billing rules, the DID vendor (its IP) and the DID client (its IP and
 * portal user).
 */
test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

const vendorIp = randomIp();
const clientIp = randomIp();
const names = { vendor: unique('didvendor'), client: unique('didclient'), rule: unique('didrule') };
const login = { name: unique('didportal'), passwd: 'Client#2026' };
// A range of its own per run: 7 digits after a random 4-digit block.
const first = `49${String(Math.floor(1000 + Math.random() * 8999))}0000`;
const nth = (k: number) => String(BigInt(first) + BigInt(k));
let token: string;
let vendorId: number;
let clientId: number;

test.beforeAll(async () => {
  token = await adminToken();
  const rule = await call(api.did.billingRule.create, {
    token,
    body: { name: names.rule, monthly_price: '2.5', per_minute: '0.01', setup_fee: '1' },
  });
  vendorId = (
    await call(api.did.createVendor, {
      token,
      body: { name: names.vendor, hosts: [vendorIp], billing_rule_id: rule.object_id },
    })
  ).object_id;
  clientId = (
    await call(api.did.createClient, {
      token,
      body: {
        name: names.client,
        hosts: [clientIp],
        billing_rule_id: rule.object_id,
        mode: 'postpaid',
        credit_limit: '100',
        username: login.name,
        password: login.passwd,
      },
    })
  ).object_id;
});

test('a vendor range is imported on DID Upload, all or nothing', async ({ page }) => {
  await enterAsAdmin(page, '/origination/did_repository_upload');
  await pick(page, page.getByTestId('upload-vendor'), names.vendor);
  await page.getByTestId('method-range').click();
  await page.getByTestId('upload-start').fill(first);
  await page.getByTestId('upload-count').fill('20');
  await page.getByTestId('upload-submit').click();
  await expect(flash(page)).toContainText('Vendor billing rule is mandatory when adding by range');
  await pick(page, page.getByTestId('upload-rule'), names.rule);
  await page.getByTestId('upload-submit').click();
  await expect(flash(page)).toContainText('Imported successfully: 20 added');
  // a bad list is refused whole, naming the line
  await page.getByTestId('method-list').click();
  await page.getByTestId('upload-numbers').fill(`${nth(100)}\n12ab\n`);
  await page.getByTestId('upload-submit').click();
  await expect(flash(page)).toContainText('DID is not valid: line 2 (12ab)');
});

test('numbers are sold to a client on the repository, with their history', async ({ page }) => {
  await enterAsAdmin(page, `/origination/did_repository?vendor_id=${vendorId}`);
  await expect(page.getByTestId(`did-${first}`)).toBeVisible();
  await page
    .locator('tr', { has: page.getByTestId(`did-${first}`) })
    .locator('.ant-checkbox-input')
    .check();
  await page
    .locator('tr', { has: page.getByTestId(`did-${nth(1)}`) })
    .locator('.ant-checkbox-input')
    .check();
  await pick(page, page.getByTestId('assign-client'), names.client);
  await page.getByTestId('assign').click();
  await expect(flash(page)).toContainText('Done: 2');
  await expect(
    page.locator('tr', { has: page.getByTestId(`did-${first}`) }).getByTestId('did-state'),
  ).toHaveText('Assigned');
  await page.getByTestId(`did-${first}`).click();
  await expect(page.getByTestId('did-history')).toContainText('assigned');
  await expect(page.getByTestId('did-history')).toContainText('imported');
});

test('an inbound call is routed to the client in the call simulation DID tab', async ({ page }) => {
  await engineSettled(token);
  await enterAsAdmin(page, '/tools/call_simulation');
  await page.getByRole('tab', { name: 'DID' }).click();
  const tab = page.getByTestId('did-tab');
  await tab.getByTestId('sim-source-ip').fill(vendorIp);
  await tab.getByTestId('sim-dnis').fill(first);
  await tab.getByTestId('simulate').click();
  await expect(tab.getByTestId('simulation-verdict')).toContainText('1');
  await expect(tab.getByTestId('ingress-rate')).toBeVisible();
  // an unassigned number is refused with its cause
  await tab.getByTestId('sim-dnis').fill(nth(5));
  await tab.getByTestId('simulate').click();
  await expect(tab.getByTestId('reject-reason')).toHaveText('did_unassigned');
});

test('the client buys and releases a number in its portal', async ({ page }) => {
  await enterAs(page, login.name, login.passwd, '/clients/origination/buy_did');
  await page.getByPlaceholder('DID').fill(nth(7));
  await page.getByPlaceholder('DID').press('Enter');
  await page
    .locator('tr', { hasText: nth(7) })
    .locator('.ant-checkbox-input')
    .check();
  await page.getByTestId('buy').click();
  await expect(flash(page)).toContainText('Assigned: 1');
  await page.goto(page.url().replace('buy_did', 'my_did'));
  const row = page.locator('tr', { hasText: nth(7) });
  await expect(row).toContainText('Assigned');
  await row.locator('.ant-checkbox-input').check();
  await page.getByTestId('release').click();
  await page
    .locator('.ant-popconfirm')
    .getByRole('button', { name: /OK|Yes/ })
    .click();
  await expect(flash(page)).toContainText('DID released');
});

test('the charge job charges a month once', async ({ page }) => {
  await enterAsAdmin(page, '/origination/did_repository');
  const runs = async () => {
    await page.getByTestId('run-charges').click();
    await expect(flash(page)).toContainText('Charge job queued');
  };
  const charges = () =>
    call(api.did.listCharges, { token, query: { carrier_id: clientId, per_page: 1000 } as never });
  await runs();
  await expect.poll(async () => (await charges()).total, { timeout: 20_000 }).toBeGreaterThan(0);
  const before = (await charges()).items.map((c) => `${c.kind}:${c.number}:${c.period}`).sort();
  await page.waitForTimeout(1500);
  await runs();
  await page.waitForTimeout(3000);
  const after = (await charges()).items.map((c) => `${c.kind}:${c.number}:${c.period}`).sort();
  expect(after).toEqual(before);
  // each DID's month appears once
  const monthly = after.filter((k) => k.startsWith('monthly:'));
  expect(new Set(monthly).size).toBe(monthly.length);
});
