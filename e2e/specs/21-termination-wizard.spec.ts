import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, unique } from '../support/api';
import { deckRows, engineSettled, pick, randomIp, rateTableWith, type DeckRow } from '../support/switch';
import { cdrOf, postCdrs } from '../support/cdrs';
import { adminToken, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Issue 3, browser proof through the termination wizard (/termination/wizard): vendor, vendor trunk,
 * customer and customer trunk in four steps, saved together; the vendor trunk then joins an LCR
 * dynamic route on its trunk priority page, and a simulated call goes to it with both rates and
 * the profit.
 *
 * Prepared over the API: the rate tables (rows of the real SDF deck; importing the deck on the rate
 * table screens is the proof of 20-termination-routing.spec.ts), the dynamic route (empty pool) and the routing plan the customer trunk uses.
 */

test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

/** UNITED KINGDOM - LONDON in the SDF deck (30/6, 0.0103). */
const CODE = '4420';
const DNIS = '442071234567';
const CUSTOMER_RATE = '0.0150';

const names = {
  vendor: unique('wvendor'),
  vendorTrunk: unique('wvtrunk'),
  customer: unique('wclient'),
  customerTrunk: unique('wctrunk'),
};
const sourceIp = randomIp();
let deck: DeckRow;
let vendorTable: { id: number; name: string };
let customerTable: { id: number; name: string };
let route: { id: number; name: string };
let plan: { id: number; name: string };

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
  vendorTable = await rateTableWith(token, 'wiz_sdf_vendor', [{ ...deckRate, rate: deck.rate }]);
  customerTable = await rateTableWith(token, 'wiz_customer', [{ ...deckRate, rate: CUSTOMER_RATE }]);
  const routeName = unique('wiz_lcr');
  route = {
    id: (await call(api.routing.dynamicRoute.create, { token, body: { name: routeName, rule: 'lcr' } }))
      .object_id,
    name: routeName,
  };
  const planName = unique('wiz_plan');
  plan = {
    id: (await call(api.routing.routingPlan.create, { token, body: { name: planName } })).object_id,
    name: planName,
  };
  await call(api.routing.createPlanRow, {
    token,
    params: { id: plan.id },
    body: { prefix: '44', route_type: 'dynamic', dynamic_route_id: route.id },
  });
});

test('termination wizard: vendor, vendor trunk, customer and customer trunk, then a routed call', async ({
  page,
}) => {
  test.slow();
  await enterAsAdmin(page, '/termination/wizard');
  await expect(page.getByRole('heading', { name: 'Termination Wizard' })).toBeVisible();
  const steps = page.getByTestId('wizard-steps');
  const next = page.getByTestId('wizard-next');

  // 1. Vendor (postpaid by default).
  await expect(page.getByTestId('wizard-vendor')).toBeVisible();
  await page.getByTestId('field-name').fill(names.vendor);
  await page.getByTestId('field-company').fill(`${names.vendor} Telecom`);
  await page.getByTestId('field-main_email').fill(`${names.vendor}@example.com`);
  await expect(page.getByTestId('field-mode')).toContainText('Postpaid');
  await next.click();

  // 2. Vendor trunk: host IP and the vendor rate table (the SDF deck's rate).
  await expect(page.getByTestId('wizard-vendor_trunk')).toBeVisible();
  await expect(steps.locator('.ant-steps-item-process')).toContainText('Vendor trunk');
  await page.getByTestId('field-name').fill(names.vendorTrunk);
  await pick(page, page.getByTestId('field-rate_table_id'), vendorTable.name);
  await page.getByTestId('field-hosts-0-host').fill(randomIp());
  await page.getByTestId('field-hosts-0-port').fill('5060');
  await next.click();

  // 3. Customer: prepaid with an allowed credit.
  await expect(page.getByTestId('wizard-customer')).toBeVisible();
  await page.getByTestId('field-name').fill(names.customer);
  await page.getByTestId('field-company').fill(`${names.customer} Telecom`);
  await page.getByTestId('field-main_email').fill(`${names.customer}@example.com`);
  await expect(page.getByTestId('field-mode')).toContainText('Prepaid');
  await page.getByTestId('field-allowed_credit').fill('50');
  await next.click();

  // 4. Customer trunk: the simulated source IP, the customer rate table and the routing plan.
  await expect(page.getByTestId('wizard-customer_trunk')).toBeVisible();
  await page.getByTestId('field-name').fill(names.customerTrunk);
  await pick(page, page.getByTestId('field-rate_table_id'), customerTable.name);
  await pick(page, page.getByTestId('field-routing_plan_id'), plan.name);
  await page.getByTestId('field-hosts-0-host').fill(sourceIp);
  await next.click();

  // Summary, then everything saved at once.
  const summary = page.getByTestId('wizard-summary');
  await expect(summary).toContainText(`${names.vendor} — ${names.vendor}@example.com`);
  await expect(summary).toContainText(names.vendorTrunk);
  await expect(summary).toContainText(`${names.customer} — ${names.customer}@example.com`);
  await expect(summary).toContainText(`${names.customerTrunk} — ${sourceIp}`);
  await page.getByTestId('wizard-finish').click();
  await expect(flash(page)).toHaveText('Vendor, vendor trunk, customer and customer trunk created');
  await expectPath(page, '/termination/client');

  // The vendor trunk joins the LCR dynamic route on its trunk priority page.
  await enterAsAdmin(page, `/routing/dynamic_routing/${route.id}/trunk_priority`);
  await expect(page.getByRole('heading', { name: route.name })).toBeVisible();
  await page.getByTestId('add-pool-trunk').click();
  await pick(page, page.getByTestId('field-trunk_id'), names.vendorTrunk);
  await page.getByTestId('field-priority').fill('1');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  const pool = page.getByTestId('dynamic-pool').locator('tbody tr').filter({ hasText: names.vendorTrunk });
  await expect(pool).toContainText(names.vendor);
  await expect(pool).toContainText(vendorTable.name);

  // A call from the customer's IP goes to the wizard's vendor.
  await engineSettled(await adminToken());
  await enterAsAdmin(page, '/tools/call_simulation');
  await page.getByTestId('sim-source-ip').fill(sourceIp);
  await page.getByTestId('sim-ani').fill('15550002222');
  await page.getByTestId('sim-dnis').fill(DNIS);
  await page.getByTestId('simulate').click();
  await expect(page.getByTestId('simulation-verdict')).toContainText('Routed: 1 vendor(s) to try, in order');
  const ingress = page.getByTestId('ingress-card');
  await expect(ingress).toContainText(names.customer);
  await expect(ingress).toContainText(names.customerTrunk);
  await expect(ingress).toContainText(`${CODE} · ${deck.destination}`);
  await expect(page.getByTestId('ingress-rate')).toHaveText(CUSTOMER_RATE);
  await expect(page.getByTestId('trace-admission').filter({ hasText: 'Balance' })).toContainText(
    'allows the call (prepaid, allowed credit 50',
  );
  const routes = page.getByTestId('simulation-routes').locator('tbody tr');
  await expect(routes).toHaveCount(1);
  await expect(routes.nth(0)).toContainText(names.vendorTrunk);
  await expect(routes.nth(0)).toContainText(names.vendor);
  await expect(routes.nth(0)).toContainText(deck.rate);
  await expect(routes.nth(0)).toContainText('0.0047');
});

test('the prepaid customer is refused in the call simulation once its calls used up its credit', async ({
  page,
}) => {
  // Issue 10: the customer's calls come back as CDRs; their cost moves its balance (prepaid, credit
  // 50) below what it may spend, and the next call is refused with the no-balance cause.
  const token = await adminToken();
  const trunkId = async (name: string) =>
    (await call(api.trunks.trunk.list, { token, query: { name } })).items.find((t) => t.name === name)!
      .trunk_id;
  const [ingress, egress] = [await trunkId(names.customerTrunk), await trunkId(names.vendorTrunk)];
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('prepaid_proxy') } });
  // Two calls of 30 hours at 0.0150 a minute: 27.00 each, 54.00 against a credit of 50.
  const cdrs = [1, 2].map((n) =>
    cdrOf({
      callId: unique(`prepaid-${n}`),
      start: Date.now() - (n + 1) * 31 * 3_600_000,
      answerAfterMs: 3000,
      duration: 108_000,
      ingressTrunk: ingress,
      egressTrunk: egress,
      sourceIp,
      ani: '15550002222',
      dnis: DNIS,
      egressDnis: DNIS,
      pddMs: 800,
    }),
  );
  await postCdrs(key, cdrs, 'prepaid-batch');

  // The balance reaches routing within a second of the batch.
  await enterAsAdmin(page, '/tools/call_simulation');
  await expect(async () => {
    await page.getByTestId('sim-source-ip').fill(sourceIp);
    await page.getByTestId('sim-ani').fill('15550002222');
    await page.getByTestId('sim-dnis').fill(DNIS);
    await page.getByTestId('simulate').click();
    await expect(page.getByTestId('simulation-verdict')).toContainText('Rejected with 402', {
      timeout: 1000,
    });
  }).toPass({ timeout: 10_000 });
  await expect(page.getByTestId('reject-reason')).toHaveText('insufficient_balance');
  await expect(page.getByTestId('trace-admission').filter({ hasText: 'Balance' })).toContainText('-54');
});
