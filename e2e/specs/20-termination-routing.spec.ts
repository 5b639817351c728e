import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, unique } from '../support/api';
import {
  deckRows,
  engineSettled,
  openTab,
  pick,
  randomIp,
  rateTableWith,
  vendorWithTrunk,
  type DeckRow,
} from '../support/switch';
import { createRateTableOnScreen, importOnRatesPage, SDF_MAPPING, sdfDeckFile } from '../support/rates';
import { adminToken, dialog, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Issue 3, browser proof: a vendor with an egress trunk, a customer with an ingress trunk, an LCR
 * dynamic route and a routing plan, all through the screens; a call simulated at
 * /tools/call_simulation shows the chosen vendor, both rates and the profit; with the vendor's
 * carrier deactivated the call goes to the second vendor, and with both gone it is rejected with
 * the reason. The ASR and ACD the switch reports (POST /api/switch/qos) show on the route's QoS
 * parameters page.
 *
 * The vendor's rate table is created at /routing/rate_table/new and filled by importing the whole
 * real SDF deck (27,523 rows) on its rates page, with the header mapping and "skip the record" (the
 * deck's nine rows without a rate are reported and left out). The customer's rate table and the
 * second vendor of the reroute are prepared over the API.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const ANI = '15550001111';
/** AFGHANISTAN - KABUL in the SDF deck (30/6, 0.2875). */
const CODE = '9320';
const DNIS = '93201234567';
const CUSTOMER_RATE = '0.3500';
const SECOND_VENDOR_RATE = '0.3100';

const names = {
  vendor: unique('vendor'),
  vendorTrunk: unique('vtrunk'),
  customer: unique('client'),
  customerTrunk: unique('ctrunk'),
  dynamicRoute: unique('lcr'),
  plan: unique('plan'),
};
const sourceIp = randomIp();
let deck: DeckRow;
let vendorTable: { id: number; name: string };
let customerTable: { id: number; name: string };
let second: Awaited<ReturnType<typeof vendorWithTrunk>>;

test.beforeAll(async () => {
  const token = await adminToken();
  [deck] = deckRows([CODE]) as [DeckRow];
  const deckRate = {
    code: deck.code,
    code_name: deck.destination,
    min_time: deck.minTime,
    interval: deck.interval,
    effective: deck.effective,
  };
  customerTable = await rateTableWith(token, 'customer', [{ ...deckRate, rate: CUSTOMER_RATE }]);
  const secondTable = await rateTableWith(token, 'second_vendor', [
    { ...deckRate, rate: SECOND_VENDOR_RATE },
  ]);
  second = await vendorWithTrunk(token, { rateTableId: secondTable.id, ip: randomIp() });
});

/** Fills the termination tab of /tools/call_simulation and runs it (after the engine took every change). */
async function simulate(page: Page): Promise<void> {
  await engineSettled(await adminToken());
  await enterAsAdmin(page, '/tools/call_simulation');
  await page.getByTestId('sim-source-ip').fill(sourceIp);
  await page.getByTestId('sim-ani').fill(ANI);
  await page.getByTestId('sim-dnis').fill(DNIS);
  const time = page.getByTestId('sim-time');
  await time.click();
  await time.fill('2026-03-02 10:15:00');
  await time.press('Enter');
  await page.getByTestId('simulate').click();
  await expect(page.getByTestId('simulation-result')).toBeVisible();
  // The numbers as routed and the call time entered (UTC).
  await expect(page.getByTestId('simulation-verdict')).toContainText(
    `ANI ${ANI} · DNIS ${DNIS} (as routed) · 2026-03-02 10:15:00`,
  );
}

/** Deactivates a vendor from Termination > Vendor, through its confirmation. */
async function deactivateVendor(page: Page, name: string): Promise<void> {
  await enterAsAdmin(page, `/termination/vendor?name=${name}`);
  const row = page.getByRole('row').filter({ has: page.getByTestId(`carrier-${name}`) });
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: 'Deactivate' }).click();
  await dialog(page, `Deactivate ${name}?`).getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText('Deactivated successfully');
  await expect(row).toContainText('Inactive');
}

test('vendor, egress trunk, customer, ingress trunk, LCR route and routing plan through the screens', async ({
  page,
}) => {
  test.slow();

  // Vendor rate table: created on its screen, then the whole SDF deck imported on its rates page.
  const token = await adminToken();
  const tableName = unique('sdf_vendor');
  vendorTable = { id: await createRateTableOnScreen(page, token, tableName), name: tableName };
  const outcome = await importOnRatesPage(page, vendorTable.id, sdfDeckFile(), {
    mapping: SDF_MAPPING,
    duplicates: 'Skip the record',
  });
  await expect(outcome).toHaveAttribute('data-status', 'Finished');
  await expect(page.getByTestId('import-result')).toContainText(
    'Import finished: 27514 new, 0 overwritten, 0 skipped, 0 end-dated, 9 row(s) with errors',
  );
  await expect(page.getByText('Rows with errors (9)')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('list-total')).toHaveText('Total 27514');
  await page.getByTestId('filter-code').locator('input').fill(CODE);
  await page.getByTestId('filter-code').locator('input').press('Enter');
  const kabul = page.getByTestId(`rate-row-${CODE}`);
  await expect(kabul).toContainText(deck.destination);
  await expect(kabul).toContainText(deck.rate);

  // Vendor carrier.
  await enterAsAdmin(page, '/termination/clients/new/vendor');
  await expect(page.getByRole('heading', { name: 'New Vendor' })).toBeVisible();
  await page.getByTestId('field-name').fill(names.vendor);
  await page.getByTestId('field-company').fill(`${names.vendor} Telecom`);
  await openTab(page, 'Contact');
  await page.getByTestId('field-main_email').fill(`${names.vendor}@example.com`);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/termination/vendor');

  // Its egress trunk: host IP and the vendor rate table.
  await enterAsAdmin(page, '/routing/trunks/egress/new');
  await pick(page, page.getByTestId('field-carrier_id'), names.vendor);
  await page.getByTestId('field-name').fill(names.vendorTrunk);
  await page.getByTestId('tab-hosts').click();
  await page.getByTestId('field-hosts-0-host').fill(randomIp());
  await page.getByTestId('field-hosts-0-port').fill('5060');
  await page.getByTestId('tab-billing').click();
  await pick(page, page.getByTestId('field-rate_table_id'), vendorTable.name);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/routing/trunks/egress');

  // Customer carrier, postpaid with a credit limit.
  await enterAsAdmin(page, '/termination/clients/new/client');
  await expect(page.getByRole('heading', { name: 'New Client' })).toBeVisible();
  await page.getByTestId('field-name').fill(names.customer);
  await page.getByTestId('field-company').fill(`${names.customer} Telecom`);
  await openTab(page, 'Contact');
  await page.getByTestId('field-main_email').fill(`${names.customer}@example.com`);
  await openTab(page, 'Mode and credit');
  await pick(page, page.getByTestId('field-mode'), 'Postpaid');
  await page.getByTestId('field-credit_limit').fill('500');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/termination/client');

  // LCR dynamic route over the new vendor trunk and the second vendor's trunk.
  await enterAsAdmin(page, '/routing/dynamic_routing/new');
  await page.getByTestId('field-name').fill(names.dynamicRoute);
  await expect(page.getByTestId('form-dynamic-route')).toContainText('LCR (least cost)');
  await pick(page, page.getByTestId('field-trunks'), names.vendorTrunk);
  await pick(page, page.getByTestId('field-trunks'), second.trunkName);
  await page.keyboard.press('Escape');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/routing/dynamic_routing');

  // Routing plan with a prefix row for the deck's code on the dynamic route.
  await enterAsAdmin(page, '/routing/routing_plan/new');
  await page.getByTestId('field-name').fill(names.plan);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/routing/routing_plan');
  await enterAsAdmin(page, `/routing/routing_plan?name=${names.plan}`);
  await page.getByRole('link', { name: names.plan, exact: true }).click();
  await expect(page.getByTestId('plan-name')).toHaveValue(names.plan);
  await page.getByTestId('add-prefix').click();
  await page.getByTestId('field-prefix').fill('93');
  await pick(page, page.getByTestId('field-dynamic_route_id'), names.dynamicRoute);
  await page.getByTestId('prefix-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  const prefixRow = page.getByTestId('prefix-row-93');
  await expect(prefixRow).toContainText('Dynamic');
  await expect(prefixRow).toContainText(names.dynamicRoute);

  // Customer's ingress trunk: the simulated source IP, the customer rate table and the plan.
  await enterAsAdmin(page, '/routing/trunks/ingress/new');
  await pick(page, page.getByTestId('field-carrier_id'), names.customer);
  await page.getByTestId('field-name').fill(names.customerTrunk);
  await page.getByTestId('tab-hosts').click();
  await page.getByTestId('field-hosts-0-host').fill(sourceIp);
  await page.getByTestId('tab-billing').click();
  await pick(page, page.getByTestId('field-rate_table_id'), customerTable.name);
  await page.getByTestId('tab-routing').click();
  await pick(page, page.getByTestId('field-routing_plan_id'), names.plan);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/routing/trunks/ingress');
});

test('a simulated call shows the chosen vendor, the ingress and vendor rates and the profit', async ({
  page,
}) => {
  await simulate(page);
  await expect(page.getByTestId('simulation-verdict')).toContainText('Routed: 2 vendor(s) to try, in order');

  const ingress = page.getByTestId('ingress-card');
  await expect(ingress).toContainText(names.customer);
  await expect(ingress).toContainText(names.customerTrunk);
  await expect(ingress).toContainText(customerTable.name);
  await expect(ingress).toContainText(`${CODE} · ${deck.destination}`);
  await expect(ingress).toContainText(names.plan);
  await expect(page.getByTestId('ingress-rate')).toHaveText(CUSTOMER_RATE);

  // LCR: the cheaper vendor (the SDF deck's rate) first; profit per minute = customer rate - vendor rate.
  const routes = page.getByTestId('simulation-routes').locator('tbody tr');
  await expect(routes).toHaveCount(2);
  await expect(routes.nth(0)).toContainText(names.vendorTrunk);
  await expect(routes.nth(0)).toContainText(names.vendor);
  await expect(routes.nth(0)).toContainText(`${CODE} · ${deck.destination}`);
  await expect(routes.nth(0)).toContainText(deck.rate);
  await expect(routes.nth(0)).toContainText('0.0625');
  await expect(routes.nth(1)).toContainText(second.trunkName);
  await expect(routes.nth(1)).toContainText(SECOND_VENDOR_RATE);
  await expect(routes.nth(1)).toContainText('0.0400');
  // The timers the switch gets per route: no trunk sets any, so the system defaults (no PDD timeout).
  await expect(routes.nth(0)).toContainText('ring 60 s · max 7200 s');

  const considered = page.getByTestId('vendors-considered');
  await expect(considered.locator('tbody tr').filter({ hasText: names.vendorTrunk })).toContainText('kept');
  await expect(page.getByTestId('trace-result')).toBeVisible();
});

test('with the vendor deactivated the call goes to the second vendor; with both, it is rejected', async ({
  page,
}) => {
  test.slow();
  await deactivateVendor(page, names.vendor);
  await simulate(page);
  await expect(page.getByTestId('simulation-verdict')).toContainText('Routed: 1 vendor(s) to try, in order');
  const routes = page.getByTestId('simulation-routes').locator('tbody tr');
  await expect(routes).toHaveCount(1);
  await expect(routes.nth(0)).toContainText(second.trunkName);
  await expect(routes.nth(0)).toContainText(SECOND_VENDOR_RATE);
  const dropped = page
    .getByTestId('vendors-considered')
    .locator('tbody tr')
    .filter({ hasText: names.vendorTrunk });
  await expect(dropped).toContainText('vendor inactive');

  await deactivateVendor(page, second.carrierName);
  await simulate(page);
  const verdict = page.getByTestId('simulation-verdict');
  await expect(verdict).toContainText('Rejected with 503');
  await expect(page.getByTestId('reject-reason')).toHaveText('no_route');
  await expect(verdict).toContainText('No vendor left to route to');
  await expect(page.getByTestId('simulation-routes')).toContainText('No route.');
});

test('the QoS counters the switch reports show as ASR, ACD and attempts on the route’s QoS page', async ({
  page,
}) => {
  const token = await adminToken();
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('proxy') } });
  const vendorTrunk = (
    await call(api.trunks.trunk.list, { token, query: { name: names.vendorTrunk, page: 0, per_page: 10 } })
  ).items[0]!;
  const route = (
    await call(api.routing.dynamicRoute.list, {
      token,
      query: { name: names.dynamicRoute, page: 0, per_page: 10, order_dir: 'asc' },
    })
  ).items[0]!;
  // Before any sample the page says what the ordering uses: nothing measured, counted as zero.
  await enterAsAdmin(page, `/routing/dynamic_routing/${route.dynamic_route_id}/qos_parameters`);
  await expect(
    page.getByTestId('qos-table').locator('tbody tr').filter({ hasText: names.vendorTrunk }),
  ).toContainText('no sample yet: counts as ASR 0 %, ACD 0 s');

  const res = await fetch(new URL('/api/switch/qos', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switch-key': key },
    body: JSON.stringify({
      samples: [
        { trunk_id: vendorTrunk.trunk_id, attempts: 10, answered: 8, billed_seconds: 960 },
        { trunk_id: second.trunkId, attempts: 4, answered: 1, billed_seconds: 30 },
      ],
    }),
  });
  expect(((await res.json()) as { success: boolean }).success).toBe(true);

  await page.reload();
  const rows = page.getByTestId('qos-table').locator('tbody tr');
  const vendorRow = rows.filter({ hasText: names.vendorTrunk });
  await expect(vendorRow).toContainText('80.00');
  await expect(vendorRow).toContainText('120.00');
  await expect(vendorRow).toContainText('10');
  const secondRow = rows.filter({ hasText: second.trunkName });
  await expect(secondRow).toContainText('25.00');
  await expect(secondRow).toContainText('30.00');
  await expect(secondRow).not.toContainText('not measured yet');
  await expect(vendorRow).toContainText('measured');
  await expect(vendorRow).not.toContainText('no sample yet');
});
