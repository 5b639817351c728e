import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, unique } from '../support/api';
import { cdrOf, postCdrs } from '../support/cdrs';
import { engineSettled, pick, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { pastMonth } from '../support/dates';
import { adminToken, enterAsAdmin } from '../support/ui';

/**
 * Rerate, browser proof (issue 10 section 3): two answered minutes to the UK came in at the
 * customer's 0.0500; an admin rerates the customer's calls of that day with a named ingress rate
 * table at 0.0800, sees the preview (2 CDRs, revenue 0.10 -> 0.16, the customer's balance -0.06),
 * applies it, and finds the balance and the ledger's rerate row in Finance > Actual Transaction.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const DAY = pastMonth().day(5);
let token: string;
let customer: { id: number; name: string };
let newTable: { id: number; name: string };

const balanceOf = async (id: number) =>
  Number((await call(api.carriers.carrier.get, { token, params: { id } })).balance);

test.beforeAll(async () => {
  token = await adminToken();
  const uk = { code: '44', code_name: 'UK' };
  const customerTable = await rateTableWith(token, 'rr_customer', [{ ...uk, rate: '0.0500' }]);
  newTable = await rateTableWith(token, 'rr_new', [{ ...uk, rate: '0.0800' }]);
  const vendorTable = await rateTableWith(token, 'rr_vendor', [{ ...uk, rate: '0.0250' }]);
  const vendor = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  const name = unique('rr_cust');
  customer = {
    name,
    id: (
      await call(api.carriers.carrier.create, {
        token,
        body: { name, company: `${name} Ltd`, client_type: 'client', main_email: `${name}@example.com` },
      })
    ).object_id,
  };
  const ingress = (
    await call(api.trunks.trunk.create, {
      token,
      body: {
        name: unique('rr_in'),
        carrier_id: customer.id,
        direction: 'ingress',
        rate_table_id: customerTable.id,
        hosts: [{ host_type: 'ip', host: randomIp(), port: null, netmask: 32 }],
      },
    })
  ).object_id;
  await engineSettled(token);
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('rr_key') } });
  const cdr = (n: number) =>
    cdrOf({
      callId: unique(`rr-call-${n}`),
      start: Date.parse(`${DAY}T10:0${n}:00Z`),
      answerAfterMs: 3000,
      duration: 60,
      ingressTrunk: ingress,
      egressTrunk: vendor.trunkId,
      sourceIp: '10.0.0.1',
    });
  expect((await postCdrs(key, [cdr(1), cdr(3)], 'rr-batch')).stored).toBe(2);
  expect(await balanceOf(customer.id)).toBe(-0.1);
});

test('an admin previews and applies a rerate; the balance and the ledger change once', async ({ page }) => {
  await enterAsAdmin(page, '/tools/rerate');
  const from = page.getByPlaceholder('Start date');
  await from.click();
  await from.fill(`${DAY} 00:00:00`);
  await from.press('Enter');
  const to = page.getByPlaceholder('End date');
  await to.fill(`${DAY} 23:59:59`);
  await to.press('Enter');
  await expect(to).toHaveValue(`${DAY} 23:59:59`);
  await pick(page, page.getByTestId('rerate-customer_ids'), customer.name);
  await page.keyboard.press('Escape'); // close the carrier select's dropdown, which covers the choice
  await page.getByTestId('rerate-rates').getByText('A named rate table for a side').click();
  await pick(page, page.getByTestId('rerate-ingress_rate_table_id'), newTable.name);
  await page.getByTestId('rerate-preview').click();

  await expect(page).toHaveURL(/#\/tools\/rerate\/\d+$/);
  await expect(page.getByTestId('rerate-state')).toHaveText('Previewed', { timeout: 15_000 });
  const preview = page.getByTestId('rerate-preview-figures');
  await expect(preview.getByTestId('rerate-preview-figures-cdrs')).toHaveText('2');
  await expect(preview.getByTestId('rerate-preview-figures-changed')).toHaveText('2');
  await expect(preview.getByTestId('rerate-preview-figures-new-revenue')).toHaveText('0.160000');
  await expect(preview.getByTestId(`rerate-preview-figures-carrier-${customer.id}`)).toContainText(
    '-0.060000',
  );
  await expect(preview.getByTestId('rerate-preview-figures-sample')).toContainText('0.0800');
  // the preview moved nothing
  expect(await balanceOf(customer.id)).toBe(-0.1);

  await page.getByTestId('rerate-apply').click();
  await page.locator('.ant-popconfirm').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('rerate-state')).toHaveText('Applied', { timeout: 15_000 });
  await expect(page.getByTestId('rerate-result-changed')).toHaveText('2');
  await expect(page.getByTestId('rerate-apply')).toHaveCount(0);
  expect(await balanceOf(customer.id)).toBe(-0.16);

  await page.goto(`${baseUrl()}/#/finance/actual_transaction?client_id=${customer.id}`);
  const ledger = page.getByTestId('ledger');
  await expect(ledger.locator('tbody tr.ant-table-row')).toHaveCount(2);
  const rerateRow = ledger.locator('tbody tr.ant-table-row').filter({ hasText: 'Rerate' });
  await expect(rerateRow).toContainText('-0.060000');
  await expect(rerateRow).toContainText('-0.100000');
  await expect(rerateRow).toContainText('-0.160000');
  await expect(page.getByTestId('ledger-total')).toHaveText('-0.160000');

  // Regenerate balance finds nothing to fix: the balance is the ledger's sum
  await page.goto(`${baseUrl()}/#/finance/regenerate_balance`);
  await expect(page.getByTestId(`balance-${customer.id}`)).toHaveCount(0);
});
