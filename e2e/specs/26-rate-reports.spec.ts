import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, unique } from '../support/api';
import { deckRows, randomIp, rateTableWith } from '../support/switch';
import { adminToken, enterAsAdmin, flash } from '../support/ui';

/**
 * Rate reports, browser proof: a client's two ingress trunks get a rate table through
 * /routing/rate_table/assign_rate_deck/{id}; /termination/client_rate_summary then lists both trunks
 * with that table, and /termination/rate_report shows the client's rate beside a vendor's for a
 * code of the real SDF deck.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

/** AFGHANISTAN - KABUL in the SDF deck. */
const CODE = '9320';
const CLIENT_RATE = '0.3500';
let client: { id: number; name: string };
let trunks: string[];
let clientTable: { id: number; name: string };
let vendorTable: { id: number; name: string };

test.beforeAll(async () => {
  const token = await adminToken();
  const [deck] = deckRows([CODE]);
  const row = { code: deck!.code, code_name: deck!.destination, effective: deck!.effective };
  clientTable = await rateTableWith(token, 'client_deck', [{ ...row, rate: CLIENT_RATE }]);
  vendorTable = await rateTableWith(token, 'vendor_deck', [{ ...row, rate: deck!.rate }]);
  const name = unique('client');
  client = {
    name,
    id: (
      await call(api.carriers.carrier.create, {
        token,
        body: { name, company: `${name} Ltd`, client_type: 'client', main_email: `${name}@example.com` },
      })
    ).object_id,
  };
  trunks = [unique('in_a'), unique('in_b')];
  for (const t of trunks)
    await call(api.trunks.trunk.create, {
      token,
      body: {
        name: t,
        carrier_id: client.id,
        direction: 'ingress',
        hosts: [{ host_type: 'ip', host: randomIp(), port: null, netmask: 32 }],
      },
    });
  const vendor = unique('vendor');
  const vendorId = (
    await call(api.carriers.carrier.create, {
      token,
      body: {
        name: vendor,
        company: `${vendor} Ltd`,
        client_type: 'vendor',
        main_email: `${vendor}@example.com`,
      },
    })
  ).object_id;
  await call(api.trunks.trunk.create, {
    token,
    body: {
      name: unique('out'),
      carrier_id: vendorId,
      direction: 'egress',
      rate_table_id: vendorTable.id,
      hosts: [{ host_type: 'ip', host: randomIp(), port: 5060, netmask: 32 }],
    },
  });
});

test('assigns a rate table to two ingress trunks on the screen', async ({ page }) => {
  await enterAsAdmin(page, '/routing/rate_table');
  await page.getByTestId('filter-name').locator('input').fill(clientTable.name);
  await page.getByTestId('filter-name').locator('input').press('Enter');
  await page.getByTestId(`assign-${clientTable.id}`).click();
  await expect(page).toHaveURL(new RegExp(`#/routing/rate_table/assign_rate_deck/${clientTable.id}$`));
  await expect(page.getByRole('heading', { name: `Assign ${clientTable.name} to trunks` })).toBeVisible();

  const table = page.getByTestId('assign-trunks');
  const carrier = page.getByTestId('assign-carrier');
  await carrier.click();
  await page.keyboard.type(client.name);
  await page.locator('.ant-select-item-option', { hasText: client.name }).click();
  for (const t of trunks) {
    const row = table.getByRole('row', { name: new RegExp(t) });
    await expect(row).toContainText('No');
    await row.getByRole('checkbox').check();
  }
  await page.getByTestId('assign-submit').click();
  await expect(flash(page)).toContainText('Assigned to 2 trunk(s); 0 already used it');
  for (const t of trunks)
    await expect(table.getByRole('row', { name: new RegExp(t) }).getByText('Yes')).toBeVisible();
});

test('the client rate summary lists both trunks with the table and its rates', async ({ page }) => {
  await enterAsAdmin(page, `/termination/client_rate_summary?carrier_id=${client.id}`);
  const list = page.getByTestId('list-client-rate-summary');
  await expect(page.getByTestId('list-total')).toHaveText('Total 2');
  for (const t of trunks) {
    const row = list.getByRole('row', { name: new RegExp(t) });
    await expect(row).toContainText(clientTable.name);
    await expect(row).toContainText('USD');
  }
  await list.getByRole('link', { name: clientTable.name }).first().click();
  await expect(page).toHaveURL(new RegExp(`#/routing/rate_table/editing_rates/${clientTable.id}`));
});

test('the rate report shows the client rate beside the vendor rate', async ({ page }) => {
  await enterAsAdmin(page, '/termination/rate_report');
  await page.getByTestId('report-codes').fill(CODE);
  await page.getByTestId('report-run').click();
  const report = page.getByTestId('rate-report');
  // Other specs price this code too: find this client's and this vendor's columns by their headers.
  const clientColumn = report.getByRole('link', { name: `${client.name} / ${clientTable.name}` });
  const vendorColumn = report.getByRole('link', { name: new RegExp(` / ${vendorTable.name}$`) });
  await expect(clientColumn).toBeVisible();
  await expect(vendorColumn).toBeVisible();
  const cell = async (column: typeof clientColumn) =>
    page.getByTestId(`cell-${CODE}-${(await column.getAttribute('data-testid'))!.replace('column-', '')}`);
  await expect(await cell(clientColumn)).toHaveText(CLIENT_RATE);
  await expect(await cell(vendorColumn)).toHaveText('0.2875');
  const row = report.locator('tr', { has: page.getByTestId(`client_min-${CODE}`) });
  await expect(row).toContainText('AFGHANISTAN - KABUL');
  await expect(page.getByTestId(`client_max-${CODE}`)).not.toHaveText('—');
  await expect(page).toHaveURL(/codes=9320/);
});
