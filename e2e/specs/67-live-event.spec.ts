import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, unique } from '../support/api';
import { engineSettled, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { adminToken, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Monitoring > Live Event and Media IP Blocking, browser proof (issue 15): the live page is pushed
 * a loop the route API refused while it is open (no reload, server-sent events), its counters and
 * connection state follow; a media IP block added on the monitoring screen is the one the routing
 * screen lists, and removing it there removes it from both.
 *
 * The termination around the loop (rate tables, vendor, customer, ingress trunk, LCR plan, loop
 * rule) is set up over the API; specs 20 and 65 prove those screens.
 */

test.describe.configure({ mode: 'serial' });

const sourceIp = randomIp();
const names = { customer: unique('lclient'), ingress: unique('lin'), loop: unique('LiveLoop') };
let switchKey = '';

test.beforeAll(async () => {
  const token = await adminToken();
  const uk = { code: '44', code_name: 'UK' };
  const vendorTable = await rateTableWith(token, 'l_vendor', [{ ...uk, rate: '0.0200' }]);
  const customerTable = await rateTableWith(token, 'l_customer', [{ ...uk, rate: '0.0500' }]);
  const vendor = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
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
      plan_name: unique('lplan'),
      route_type: 'dynamic',
      route_name: unique('llcr'),
      rule: 'lcr',
      trunks: [{ trunk_id: vendor.trunkId }],
      ingress_trunk_ids: [ingress],
    },
  });
  await call(api.monitoring.loopRule.create, {
    token,
    body: {
      rule_name: names.loop,
      trunk_ids: [ingress],
      max_calls: 2,
      window_seconds: 60,
      block_seconds: 600,
    },
  });
  await engineSettled(token);
  switchKey = (await call(api.routing.createSwitchKey, { token, body: { name: unique('l_key') } })).key;
});

/** The switch asks the route API for a call; the reject reason, if any. */
async function ask(dnis: string): Promise<string | null> {
  const res = await fetch(new URL('/api/switch/route', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switch-key': switchKey },
    body: JSON.stringify({ source_ip: sourceIp, ani: '15550002222', dnis }),
  });
  return ((await res.json()) as { payload: { reject_reason: string | null } }).payload.reject_reason;
}

test('the live page is pushed a loop the route API refused, without reloading', async ({ page }) => {
  await enterAsAdmin(page, '/monitoring/live_event');
  await expect(page.getByTestId('live-connection-live')).toBeVisible({ timeout: 15_000 });
  const loops = page.getByTestId('live-loops-1h').locator('.ant-statistic-content-value');
  await expect(loops).toHaveText(/^\d+$/);
  const loopsBefore = Number(await loops.innerText());
  // A mark on the window: it survives only if the page is not reloaded.
  await page.evaluate(() => ((window as unknown as { __live_marker: number }).__live_marker = 1));
  const events = page.getByTestId('live-events');
  await expect(events.getByText(names.loop)).toHaveCount(0);

  // The same call again and again: the third within a minute is a loop.
  const dnis = '447700900555';
  await expect
    .poll(async () => [await ask(dnis), await ask(dnis), await ask(dnis)].pop(), { timeout: 10_000 })
    .toBe('loop_detected');

  // It arrives over the stream.
  const row = events.locator('tbody tr').filter({ hasText: names.loop }).first();
  await expect(row).toBeVisible({ timeout: 15_000 });
  await expect(row).toContainText(`15550002222 -> ${dnis}`);
  await expect(row.getByTestId('event-loop')).toHaveText('Loop refused');
  await expect(row.getByRole('link', { name: names.loop })).toBeVisible();
  // The counters follow the event.
  await expect
    .poll(async () => Number(await loops.innerText()), { timeout: 10_000 })
    .toBeGreaterThan(loopsBefore);
  expect(await page.evaluate(() => (window as unknown as { __live_marker?: number }).__live_marker)).toBe(1);
  await expect(page.getByTestId('live-connection-live')).toBeVisible();

  // Auto refresh without the stream: the spec's choices; the state says so; back to live.
  await page.getByTestId('live-refresh').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'No refresh' }).click();
  await expect(page.getByTestId('live-connection-paused')).toBeVisible();
  await expect(events.getByText(names.loop).first()).toBeVisible();
  await page.getByTestId('live-refresh').click();
  for (const m of ['Live (pushed)', 'Every 3 minutes', 'Every 5 minutes', 'Every 20 minutes'])
    await expect(page.locator('.ant-select-item-option').filter({ hasText: m })).toBeVisible();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Every 5 minutes' }).click();
  await expect(page.getByTestId('live-connection-polling')).toBeVisible();
  await page.getByTestId('live-refresh').click();
  await page.locator('.ant-select-item-option').filter({ hasText: 'Live (pushed)' }).click();
  await expect(page.getByTestId('live-connection-live')).toBeVisible({ timeout: 15_000 });
});

test('the stream breaking: the page says so, polls the summary, and reconnects from the last event', async ({
  page,
}) => {
  let refuse = true;
  const asked: string[] = [];
  await page.route('**/api/monitoring/live_event/stream**', async (route) => {
    asked.push(route.request().url());
    if (refuse) await route.abort('connectionreset');
    else await route.fallback();
  });
  await enterAsAdmin(page, '/monitoring/live_event');
  await expect(page.getByTestId('live-connection-reconnecting')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('live-fallback')).toBeVisible();
  refuse = false;
  await expect(page.getByTestId('live-connection-live')).toBeVisible({ timeout: 30_000 });
  // Each attempt asks for the events after the newest one the page has.
  expect(asked.at(-1)).toMatch(/after_id=[1-9]\d*/);
});

test('a media IP block added on the monitoring screen is the routing screen’s; removed, it is gone from both', async ({
  page,
}) => {
  const ip = randomIp();
  await enterAsAdmin(page, '/monitoring/media_ip_blocking');
  await page.getByTestId('new-button').click();
  await expectPath(page, '/monitoring/media_ip_blocking/new');
  await page.getByTestId('field-ip').fill(ip);
  await page.getByTestId('field-note').fill('live fraud source');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/monitoring/media_ip_blocking');
  await expect(page.locator('tbody tr').filter({ hasText: ip })).toContainText('live fraud source');

  await enterAsAdmin(page, '/routing/inbound_media_ip_blocking');
  const inRouting = page.locator('tbody tr').filter({ hasText: ip });
  await expect(inRouting).toContainText('Blocking');
  await expect(inRouting).toContainText('live fraud source');

  await enterAsAdmin(page, '/monitoring/media_ip_blocking');
  await page.locator('tbody tr').filter({ hasText: ip }).locator('[data-testid^="delete-"]').click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText('Deleted successfully');
  await expect(page.locator('tbody tr').filter({ hasText: ip })).toHaveCount(0);
  await enterAsAdmin(page, '/routing/inbound_media_ip_blocking');
  await expect(page.getByTestId('new-button')).toBeVisible();
  await expect(page.locator('tbody tr').filter({ hasText: ip })).toHaveCount(0);

  // The upload address opens the list with its upload dialog.
  await enterAsAdmin(page, '/monitoring/media_ip_blocking/upload');
  await expect(page.locator('.ant-modal-title', { hasText: 'Upload a list' })).toBeVisible();
});
