import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, unique } from '../support/api';
import { engineSettled, pick, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { adminToken, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Routing extras, browser proof: a digital map made through the screens (map, trunk assignment,
 * items added, edited and deleted with the row actions) turns the national number a customer sends
 * into the international one before pricing, as the call simulation shows; a source IP blocked on
 * Inbound Media IP Blocking and an OCN on the STIOCN Block List refuse the call with their reason.
 * A map chosen on the vendor trunk's digit manipulation tab rewrites the number the vendor gets.
 * The vendor trunk's timeout settings reach the route the switch gets (ring, PDD, max duration).
 *
 * The termination around it (rate tables, vendor, customer, ingress trunk, LCR plan) is set up over
 * the API; spec 20 proves those screens.
 */

test.describe.configure({ mode: 'serial' });

const names = { customer: unique('xclient'), ingress: unique('xin'), map: unique('UK national') };
const sourceIp = randomIp();
let vendor: Awaited<ReturnType<typeof vendorWithTrunk>>;

test.beforeAll(async () => {
  const token = await adminToken();
  const uk = { code: '44', code_name: 'UK' };
  const vendorTable = await rateTableWith(token, 'x_vendor', [{ ...uk, rate: '0.0200' }]);
  const customerTable = await rateTableWith(token, 'x_customer', [{ ...uk, rate: '0.0500' }]);
  vendor = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  const customer = (
    await call(api.carriers.carrier.create, {
      token,
      body: {
        name: names.customer,
        company: `${names.customer} Ltd`,
        client_type: 'client',
        main_email: `${names.customer.toLowerCase()}@example.com`,
        unlimited_credit: true,
      },
    })
  ).object_id;
  const ingress = (
    await call(api.trunks.trunk.create, {
      token,
      body: {
        name: names.ingress,
        carrier_id: customer,
        direction: 'ingress',
        rate_table_id: customerTable.id,
        hosts: [{ host_type: 'ip', host: sourceIp, port: null, netmask: 32 }],
      },
    })
  ).object_id;
  await call(api.routing.routingWizard, {
    token,
    body: {
      plan_name: unique('xplan'),
      route_type: 'dynamic',
      route_name: unique('xlcr'),
      rule: 'lcr',
      trunks: [{ trunk_id: vendor.trunkId }],
      ingress_trunk_ids: [ingress],
    },
  });
});

async function simulate(page: Page, dnis: string, extra: { ocn?: string } = {}): Promise<void> {
  await engineSettled(await adminToken());
  await enterAsAdmin(page, '/tools/call_simulation');
  await page.getByTestId('sim-source-ip').fill(sourceIp);
  await page.getByTestId('sim-ani').fill('2125550000');
  await page.getByTestId('sim-dnis').fill(dnis);
  if (extra.ocn) await page.getByTestId('sim-ocn').fill(extra.ocn);
  await page.getByTestId('simulate').click();
  await expect(page.getByTestId('simulation-result')).toBeVisible();
}

test('a digital map made through the screens rewrites the customer number before routing', async ({
  page,
}) => {
  test.slow();
  // Without a map the national number has no rate.
  await simulate(page, '02071234567');
  await expect(page.getByTestId('simulation-verdict')).toContainText('Rejected with 404');

  // The map, assigned to the customer's ingress trunk.
  await enterAsAdmin(page, '/routing/digital_maps');
  await page.getByTestId('new-button').click();
  await expectPath(page, '/routing/digital_maps/new');
  await page.getByTestId('field-name').fill(names.map);
  await pick(page, page.getByTestId('field-trunk_ids'), names.ingress);
  await page.keyboard.press('Escape');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/routing/digital_maps');

  // Its items: 0 -> 44, and one more that is edited, then deleted, with the row actions.
  await page.getByTestId(`map-${names.map}`).click();
  await expect(page.getByRole('heading', { name: `Digit mapping items of "${names.map}"` })).toBeVisible();
  await expect(page.getByText(`${names.ingress} (${names.customer}) · Ingress`)).toBeVisible();
  await page.getByTestId('add-item').click();
  await page.getByTestId('field-pattern').fill('0');
  await page.getByTestId('field-digits').fill('44');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  const table = page.getByTestId('items-table');
  await expect(table).toContainText('replace "0" with "44"');

  await page.getByTestId('add-item').click();
  await pick(page, page.getByTestId('field-field'), 'ANI');
  await pick(page, page.getByTestId('field-action'), 'Prepend digits');
  await page.getByTestId('form-save').click();
  // The server's rule, shown on the field: prepend needs digits.
  await expect(page.getByText('digits is required')).toBeVisible();
  await page.getByTestId('field-digits').fill('9');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expect(table).toContainText('prepend 9');
  await page.getByTestId('edit-item-2').click();
  await page.getByTestId('field-digits').fill('1');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');
  await expect(table).toContainText('prepend 1');
  await page.getByTestId('delete-item-2').click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText('Deleted successfully');
  await expect(table).not.toContainText('prepend 1');

  // The simulation shows the mapped number, priced and routed.
  await simulate(page, '02071234567');
  await expect(page.getByTestId('simulation-verdict')).toContainText('Routed');
  await expect(page.getByTestId('simulation-verdict')).toContainText('DNIS 442071234567 (as routed)');
  await expect(page.getByTestId('trace-digits')).toContainText(
    `Digital map ${names.map}: ANI 2125550000 unchanged; DNIS 02071234567 -> 442071234567`,
  );
  await expect(page.getByTestId('simulation-routes')).toContainText(vendor.trunkName);
});

test('the vendor trunk’s digit manipulation tab assigns a digital map, links to it and removes it', async ({
  page,
}) => {
  test.slow();
  const token = await adminToken();
  const mapName = unique('Vendor intl');
  const mapId = (await call(api.routingExtras.digitalMap.create, { token, body: { name: mapName } }))
    .object_id;
  await call(api.routingExtras.createDigitMapItem, {
    token,
    params: { id: mapId },
    body: { field: 'dnis', action: 'prepend', digits: '011' },
  });

  const openTab = async () => {
    await enterAsAdmin(page, `/routing/trunks/edit/${vendor.trunkId}/egress`);
    await page.getByTestId('tab-digitManipulation').click();
  };
  await openTab();
  await expect(page.getByTestId('digital-map-link')).toHaveCount(0);
  await pick(page, page.getByTestId('field-digital_map_id'), mapName);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');

  // The map is the trunk's, on both sides: the trunk's tab links to it and the map lists the trunk.
  await openTab();
  await expect(page.getByTestId('field-digital_map_id')).toContainText(mapName);
  await page.getByTestId('digital-map-link').click();
  await expectPath(page, `/routing/digital_maps/digit_mapping_detail/${mapId}`);
  await expect(page.getByRole('heading', { name: `Digit mapping items of "${mapName}"` })).toBeVisible();
  await expect(page.getByText(`${vendor.trunkName} (${vendor.carrierName}) · Egress`)).toBeVisible();

  // The vendor gets the number the map makes.
  await simulate(page, '02071234567');
  await expect(page.getByTestId(`route-${vendor.trunkId}`)).toContainText('011442071234567');

  // Cleared on the tab, the trunk has no map any more.
  await openTab();
  const select = page.getByTestId('field-digital_map_id');
  await select.hover();
  await select.locator('.ant-select-clear').click();
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');
  expect(
    (await call(api.trunks.trunk.get, { token, params: { id: vendor.trunkId } })).digital_map_id,
  ).toBeNull();
  await simulate(page, '02071234567');
  await expect(page.getByTestId(`route-${vendor.trunkId}`)).not.toContainText('011442071234567');
});

test('the vendor trunk’s timeout settings reach the switch: the route carries its ring timer and the lower maximum duration', async ({
  page,
}) => {
  test.slow();
  const openTimeouts = async () => {
    await enterAsAdmin(page, `/routing/trunks/edit/${vendor.trunkId}/egress`);
    await page.getByTestId('tab-timeouts').click();
  };
  await openTimeouts();
  await page.getByTestId('field-timeouts-ring_timer').fill('25');
  await page.getByTestId('field-timeouts-pdd_timeout_ms').fill('4000');
  await page.getByTestId('field-timeouts-max_duration').fill('1800');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');

  // The customer's trunk sets no maximum, so the system's 7200 s counts for it: the vendor's 1800 s is lower.
  await simulate(page, '02071234567');
  await expect(page.getByTestId(`route-timers-${vendor.trunkId}`)).toHaveText(
    'ring 25 s · PDD 4000 ms · max 1800 s',
  );

  // Cleared again, the route falls back to the system defaults.
  await openTimeouts();
  for (const f of ['ring_timer', 'pdd_timeout_ms', 'max_duration'])
    await page.getByTestId(`field-timeouts-${f}`).fill('');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');
  await simulate(page, '02071234567');
  await expect(page.getByTestId(`route-timers-${vendor.trunkId}`)).toHaveText('ring 60 s · max 7200 s');
});

test('a blocked source IP and a blocked OCN refuse the call, with the reason', async ({ page }) => {
  test.slow();
  await enterAsAdmin(page, '/routing/STIOCN_Block_List');
  await page.getByTestId('new-button').click();
  await page.getByTestId('field-value').fill('9z9z');
  await page.getByTestId('field-note').fill('robocalls');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expect(page.getByText('9Z9Z')).toBeVisible();
  await simulate(page, '02071234567', { ocn: '9Z9Z' });
  await expect(page.getByTestId('simulation-verdict')).toContainText('Rejected with 403');
  await expect(page.getByTestId('simulation-result')).toContainText('robocalls');

  await enterAsAdmin(page, '/routing/inbound_media_ip_blocking');
  await page.getByTestId('new-button').click();
  await page.getByTestId('field-ip').fill('not an ip');
  await page.getByTestId('form-save').click();
  await expect(page.getByText('IP format invalid')).toBeVisible();
  await page.getByTestId('field-ip').fill(`${sourceIp}/32`);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expect(page.getByText(sourceIp, { exact: true })).toBeVisible();
  await simulate(page, '02071234567');
  await expect(page.getByTestId('simulation-verdict')).toContainText('Rejected with 403');
  await expect(page.getByTestId('simulation-result')).toContainText('inbound media IP block list');
});
