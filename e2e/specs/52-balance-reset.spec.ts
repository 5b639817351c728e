import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createCarrierUser, unique, type PortalLogin } from '../support/api';
import { pick } from '../support/switch';
import { adminToken, enterAsAdmin, flash } from '../support/ui';

/**
 * Finance's balance reset, in the browser (Log > Reset Balance Log, docs/billing.md): the clerk
 * sets a carrier's balance now (applied by its job: one reset ledger row of the difference), plans
 * another for tomorrow and cancels it; the page reads the same in German.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

let token: string;
let carrier: PortalLogin & { clientId: number; carrierName: string };

test.beforeAll(async () => {
  token = await adminToken();
  carrier = await createCarrierUser(token, { name: unique('ResetCo') });
});

const ledger = async () =>
  (
    await call(api.finance.listTransactions, {
      token,
      query: { client_id: carrier.clientId, kind: 'reset' } as never,
    })
  ).items.map((r) => [r.amount, r.balance_after]);

test('a balance is reset now with one ledger row; a planned reset is cancelled and never applies', async ({
  page,
}) => {
  await enterAsAdmin(page, '/log/reset_balance_log');
  await expect(page.locator('h1')).toHaveText('Reset Balance Log');

  // refused with the server's words, naming the field: nothing recorded
  await pick(page, page.getByTestId('reset-carrier'), carrier.carrierName);
  await page.getByTestId('reset-balance').fill('12,50');
  await page.getByTestId('reset-save').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByText('must be a decimal number')).toBeVisible();
  expect(await ledger()).toEqual([]);

  await page.getByTestId('reset-balance').fill('250.75');
  await page.getByTestId('reset-note').fill('new prepaid plan');
  await page.getByTestId('reset-save').click();
  await page.getByTestId('confirm-ok').click();
  await expect(flash(page)).toContainText('is being applied');
  const first = page.getByTestId('resets').locator('tbody tr.ant-table-row').first();
  await expect(first.getByTestId('reset-state')).toHaveText('Finished', { timeout: 15_000 });
  await expect(first).toContainText(carrier.carrierName);
  await expect(first).toContainText('250.750000');
  await expect(first).toContainText('new prepaid plan');
  expect(await ledger()).toEqual([['250.750000', '250.750000']]);

  // planned for tomorrow: pending, then cancelled
  await pick(page, page.getByTestId('reset-carrier'), carrier.carrierName);
  await page.getByTestId('reset-balance').fill('0');
  const at = page.getByTestId('reset-run-at');
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  await at.fill(`${tomorrow} 06:00`);
  await at.press('Enter'); // takes the time and, as Enter in a form does, submits: the confirmation
  await page.getByTestId('confirm-ok').click();
  await expect(flash(page)).toContainText('scheduled');
  const planned = page.getByTestId('resets').locator('tbody tr.ant-table-row').first();
  await expect(planned.getByTestId('reset-state')).toHaveText('Pending');
  await expect(planned).toContainText(`${tomorrow} 06:00:00`);
  await planned.getByTestId('reset-cancel').click();
  await page.getByTestId('confirm-ok').click();
  await expect(planned.getByTestId('reset-state')).toHaveText('Cancelled');
  await expect(planned.getByTestId('reset-cancel')).toHaveCount(0);
  expect(await ledger()).toEqual([['250.750000', '250.750000']]);

  // the filter by state
  await pick(page, page.getByTestId('filter-state'), 'Finished');
  await expect(page.getByTestId('resets').locator('tbody tr.ant-table-row')).toHaveCount(1);
});

test('the reset balance log reads in German', async ({ page }) => {
  await page.addInitScript(() => localStorage.setItem('languages', 'de'));
  await enterAsAdmin(page, '/log/reset_balance_log');
  await expect(page.locator('h1')).toHaveText('Saldo-Rücksetzungen');
  await expect(page.getByTestId('reset-save')).toHaveText('Saldo zurücksetzen');
  const row = page
    .getByTestId('resets')
    .locator('tbody tr.ant-table-row')
    .filter({ hasText: carrier.carrierName });
  await expect(row.getByTestId('reset-state')).toHaveText(['Storniert', 'Ausgeführt']);
});
