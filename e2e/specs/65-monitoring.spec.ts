import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, unique } from '../support/api';
import { engineSettled, openTab, pick, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { cdrOf, postCdrs } from '../support/cdrs';
import { adminToken, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Monitoring, browser proof (issue 15): a fraud detection rule made through the screens blocks the
 * customer's trunk after a burst of expensive calls sent through the CDR ingest; the execution log
 * and the blocks tab show it, the call simulation shows the refusal (403 trunk_blocked), and the
 * block lifts after its time. A loop detection rule made through the screens refuses the same ANI
 * and DNIS after too many calls in the route API, and the call simulation shows it (482).
 *
 * The termination around it (rate tables, vendor, customer, ingress trunk, LCR plan) is set up
 * over the API; spec 20 proves those screens.
 */

test.describe.configure({ mode: 'serial' });

const names = {
  customer: unique('mclient'),
  ingress: unique('min'),
  fraud: unique('Burst'),
  loop: unique('Loops'),
};
const sourceIp = randomIp();
let ingress = 0;
let switchKey = '';
let vendorTrunk = 0;

test.beforeAll(async () => {
  const token = await adminToken();
  const uk = { code: '44', code_name: 'UK' };
  const vendorTable = await rateTableWith(token, 'm_vendor', [{ ...uk, rate: '0.0200' }]);
  const customerTable = await rateTableWith(token, 'm_customer', [{ ...uk, rate: '0.0500' }]);
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
  ingress = (
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
      plan_name: unique('mplan'),
      route_type: 'dynamic',
      route_name: unique('mlcr'),
      rule: 'lcr',
      trunks: [{ trunk_id: vendor.trunkId }],
      ingress_trunk_ids: [ingress],
    },
  });
  await engineSettled(token);
  switchKey = (await call(api.routing.createSwitchKey, { token, body: { name: unique('m_key') } })).key;
  vendorTrunk = vendor.trunkId;
});

async function simulate(page: Page, dnis: string): Promise<void> {
  await enterAsAdmin(page, '/tools/call_simulation');
  await page.getByTestId('sim-source-ip').fill(sourceIp);
  await page.getByTestId('sim-ani').fill('15550001111');
  await page.getByTestId('sim-dnis').fill(dnis);
  await page.getByTestId('simulate').click();
  await expect(page.getByTestId('simulation-result')).toBeVisible();
}

/** `n` answered one-minute UK calls of the customer that started a few minutes ago, through the CDR ingest. */
async function burst(n: number): Promise<void> {
  const start = Date.now() - 5 * 60_000;
  const cdrs = Array.from({ length: n }, (_, i) =>
    cdrOf({
      callId: unique(`m-call-${i}`),
      start: start + i * 1000,
      answerAfterMs: 3000,
      duration: 60,
      ingressTrunk: ingress,
      egressTrunk: vendorTrunk,
      sourceIp,
    }),
  );
  expect((await postCdrs(switchKey, cdrs, 'm-batch')).stored).toBe(n);
}

test('a fraud rule blocks the trunk after a burst of expensive calls; the simulation shows it; it lifts after its time', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await enterAsAdmin(page, '/monitoring/fraud_detection');
  await page.getByTestId('new-button').click();
  await expectPath(page, '/monitoring/fraud_detection/new');
  await page.getByTestId('field-rule_name').fill(names.fraud);
  await pick(page, page.getByTestId('field-trunk_ids'), names.ingress);
  await page.keyboard.press('Escape');
  // Without a threshold the server refuses, and the form shows its message.
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast-message')).toHaveText('Set at least one threshold');
  await openTab(page, 'Thresholds');
  await page.getByTestId('field-hour_revenue').fill('1');
  await openTab(page, 'Actions');
  await page.getByTestId('field-unblock_after_minutes').fill('1');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/monitoring/fraud_detection');
  await expect(page.getByText(names.fraud)).toBeVisible();

  // Before any traffic the call routes.
  await simulate(page, '447700900123');
  await expect(page.getByTestId('simulation-verdict')).toContainText('Routed');

  // 30 calls of a minute at 0.05 = 1.50 in the last hour, over the threshold of 1.
  await burst(30);
  await enterAsAdmin(page, '/monitoring/fraud_detection');
  await page.getByTestId('run-now').click();
  await expect(flash(page)).toContainText('The rules are being evaluated');
  await openTab(page, 'Execution log');
  await expectPath(page, '/monitoring/fraud_detection/exec_log');
  // the log re-reads itself every 10 s
  await expect(page.getByTestId('event-triggered')).toHaveCount(1, { timeout: 25_000 });
  await expect(page.getByText('revenue 1.5 > 1 (60 min)')).toBeVisible();
  await openTab(page, 'Blocks');
  await expectPath(page, '/monitoring/fraud_detection/blocks');
  // The blocks table's row (the execution log's rows, triggered and blocked, name the rule and the
  // trunk too, and the log's table can still be on the page while the tab changes).
  await expect(
    page
      .getByTestId('list-monitoring-blocks-fraud')
      .locator('tbody tr')
      .filter({ hasText: names.ingress })
      .filter({ hasText: names.fraud }),
  ).toContainText('Blocking');

  // The route decision refuses the customer's trunk.
  await simulate(page, '447700900123');
  await expect(page.getByTestId('simulation-verdict')).toContainText('Rejected with 403');
  await expect(page.getByTestId('reject-reason')).toContainText('trunk_blocked');
  await expect(page.getByTestId('trace-monitoring')).toContainText(`is blocked by rule ${names.fraud}`);

  // The operator turns the rule off (a pass would block again while the last hour is over the
  // threshold); the block it placed stays for its minute, then the call routes again by itself.
  await enterAsAdmin(page, '/monitoring/fraud_detection');
  await page
    .getByTestId('list-fraud-rules')
    .locator('tbody tr')
    .filter({ hasText: names.fraud })
    .locator('[data-testid^="deactivate-"]')
    .click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText('Deactivated successfully');
  await simulate(page, '447700900123');
  await expect(page.getByTestId('reject-reason')).toContainText('trunk_blocked');
  await expect
    .poll(
      async () => {
        await page.getByTestId('simulate').click();
        return page.getByTestId('simulation-verdict').innerText();
      },
      { timeout: 100_000, intervals: [5_000] },
    )
    .toContain('Routed');
});

test('a loop detection rule refuses the same ANI and DNIS after too many calls; the simulation shows it', async ({
  page,
}) => {
  await enterAsAdmin(page, '/monitoring/loop_detection');
  await page.getByTestId('new-button').click();
  await page.getByTestId('field-rule_name').fill(names.loop);
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('toast-message')).toHaveText(
    'List the ingress trunks or the number ranges to watch',
  );
  await pick(page, page.getByTestId('field-trunk_ids'), names.ingress);
  await page.keyboard.press('Escape');
  await page.getByTestId('field-max_calls').fill('2');
  await page.getByTestId('field-window_seconds').fill('60');
  await page.getByTestId('field-block_seconds').fill('600');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expect(page.getByText(names.loop)).toBeVisible();

  // The switch asks for the same call again and again: the third within a minute is a loop.
  const ask = async () => {
    const res = await fetch(new URL('/api/switch/route', baseUrl()), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-switch-key': switchKey },
      body: JSON.stringify({ source_ip: sourceIp, ani: '15550001111', dnis: '447700900777' }),
    });
    return ((await res.json()) as { payload: { reject_reason: string | null } }).payload.reject_reason;
  };
  await expect
    .poll(async () => [await ask(), await ask(), await ask()].pop(), { timeout: 10_000 })
    .toBe('loop_detected');

  await simulate(page, '447700900777');
  await expect(page.getByTestId('simulation-verdict')).toContainText('Rejected with 482');
  await expect(page.getByTestId('trace-monitoring')).toContainText(`loop rule ${names.loop}`);
  // Another number of the same caller is fine.
  await page.getByTestId('sim-dnis').fill('447700900778');
  await page.getByTestId('simulate').click();
  await expect(page.getByTestId('simulation-verdict')).toContainText('Routed');

  await enterAsAdmin(page, '/monitoring/loop_detection/log');
  await expect(page.getByText('15550001111 -> 447700900777')).toBeVisible();
});
