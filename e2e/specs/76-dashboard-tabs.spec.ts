import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, createCarrierUser, unique } from '../support/api';
import { cdrOf, londonRoute, postCdrs } from '../support/cdrs';
import { adminToken, enterAsAdmin, hashPath } from '../support/ui';

/**
 * The admin dashboard's tabs and the active call report (issue 11, docs/statistics.md
 * "Dashboard"): a customer's calls of the last minutes are posted through the real switch API;
 * the tabs (report, charts, inbound and outbound client QoS, QoS report, alert) show them with
 * their charts, keep the range in the URL and refresh; the switch's calls-up report is the active
 * call report.
 */

test.describe.configure({ mode: 'serial' });

let customer: Awaited<ReturnType<typeof createCarrierUser>>;
let route: Awaited<ReturnType<typeof londonRoute>>;
/** Start of the customer's first call (ms). */
let callsStart = 0;

test.beforeAll(async () => {
  const token = await adminToken();
  customer = await createCarrierUser(token, { name: unique('DashCustomer') });
  route = await londonRoute(token, customer.clientId, 'dash');
  callsStart = Math.floor(Date.now() / 1000) * 1000 - 4 * 60_000;
  const cdrs = [90, 30, 0, 0].map((duration, i) =>
    cdrOf({
      callId: unique(`dash-call-${i}`),
      start: callsStart + i * 1000,
      duration,
      ingressTrunk: route.ingressTrunk,
      egressTrunk: route.vendorTrunk,
      sourceIp: route.sourceIp,
      dnis: '442071234567',
    }),
  );
  expect((await postCdrs(route.key, cdrs, 'dash-batch')).stored).toBe(4);
});

test('the report tab lists the customer of the last hour with its totals and a chart', async ({ page }) => {
  await enterAsAdmin(page, '/statistics/dashboard?range=last_1h');
  await page.getByTestId('dash-tab-report').click();
  expect(hashPath(page)).toBe('/statistics/dashboard/report');
  await expect(page).toHaveURL(/range=last_1h/);
  const row = page
    .getByTestId('dash-report-table')
    .locator('tbody tr')
    .filter({ hasText: customer.carrierName });
  await expect(row.locator('td').nth(1)).toHaveText('4'); // attempts
  await expect(row.locator('td').nth(2)).toHaveText('2'); // answered
  await expect(row).toContainText('50.00'); // ASR
  await expect(page.getByTestId('dash-report-totals')).toContainText('Total');
  await expect(
    page.getByTestId('dash-report-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  // Destination is the country of the vendor's rate (docs/statistics.md: destinations are countries).
  await page.getByTestId('dash-report-by').getByText('Destination').click();
  await expect(page.getByTestId('dash-report-table')).toContainText('United Kingdom');
});

test('the charts tab draws calls, minutes and money over time and the peaks; auto-refresh refetches', async ({
  page,
}) => {
  await enterAsAdmin(page, '/statistics/dashboard/charts?range=last_6h');
  for (const id of [
    'dash-chart-calls',
    'dash-chart-minutes',
    'dash-chart-money',
    'dash-peaks-hours',
    'dash-peaks-days',
  ]) {
    await expect(page.getByTestId(id)).toHaveAttribute('data-points', /^[1-9]\d*$/);
    // the chart's own drawing, not the legend's icons (recharts draws those as surfaces too)
    await expect(page.getByTestId(id).locator('.recharts-wrapper > .recharts-surface')).toBeVisible();
  }
  await expect(page.getByTestId('dash-chart-calls').locator('.recharts-line-curve').first()).toBeVisible();
  await expect(page.getByTestId('dash-busiest-hour')).not.toContainText('none');
  // choosing a refresh keeps the tab and asks the charts again
  const asked = page.waitForRequest((r) => r.url().includes('/api/stats/dashboard/charts'));
  await page.getByTestId('dash-refresh').click();
  await page.getByTitle('Every 3 minutes').click();
  await expect(page).toHaveURL(/refresh=3/);
  expect(hashPath(page)).toBe('/statistics/dashboard/charts');
  await page.getByTestId('dash-range').click();
  await page.getByTitle('Last 24 Hours').click();
  await asked;
});

test('inbound and outbound client QoS: the trunks with their ASR over 15 minutes, an hour and a day', async ({
  page,
}) => {
  await enterAsAdmin(page, '/statistics/dashboard/ingress_client_qos');
  const row = page
    .getByTestId('dash-ingress-qos-table')
    .locator('tbody tr')
    .filter({ hasText: customer.carrierName });
  await expect(row.locator('td').nth(2)).toHaveText('4'); // attempts, last 15 minutes
  await expect(row.locator('td').nth(3)).toHaveText('50.00'); // ASR
  await expect(
    page.getByTestId('dash-ingress-qos-chart').locator('.recharts-bar-rectangle').first(),
  ).toBeVisible();
  await page.getByTestId('dash-tab-egress_client_qos').click();
  expect(hashPath(page)).toBe('/statistics/dashboard/egress_client_qos');
  // a data row (the table scrolls sideways, so its body starts with antd's hidden measure row)
  await expect(
    page.getByTestId('dash-egress-qos-table').locator('tbody tr.ant-table-row').first(),
  ).toBeVisible();
});

test('the QoS report and alert tabs', async ({ page }) => {
  await enterAsAdmin(page, '/statistics/dashboard/qos_report?range=last_1h');
  await expect(
    page.getByTestId('dash-qos-asr').locator('.recharts-wrapper > .recharts-surface'),
  ).toBeVisible();
  // The table has a row per step with calls, newest first, over all the traffic (other specs' calls
  // share the steps on a shared server): the step of the customer's calls shows the server's
  // figures for it, which count those calls (alone on the server: 4 attempts, ASR 50.00).
  const token = await adminToken();
  const { timezone } = await call(api.config.getSystemConfig, { token });
  const charts = await call(api.dashboard.getCharts, { token, query: { range: 'last_1h', tz: timezone } });
  const steps = [...charts.series].reverse().filter((p) => p.attempts > 0);
  const step = charts.step_minutes * 60_000;
  const ours = steps.findIndex((p) => Date.parse(p.at) <= callsStart && callsStart < Date.parse(p.at) + step);
  expect(ours).toBeGreaterThanOrEqual(0);
  const point = steps[ours]!;
  expect(point.attempts).toBeGreaterThanOrEqual(4);
  expect(point.answered).toBeGreaterThanOrEqual(2);
  const qosRow = page.getByTestId('dash-qos-table').locator('tbody tr.ant-table-row').nth(ours);
  await expect(qosRow.locator('td').nth(1)).toHaveText(String(point.attempts));
  await expect(qosRow.locator('td').nth(2)).toHaveText(String(point.answered));
  await expect(qosRow.locator('td').nth(3)).toHaveText(point.asr!.toFixed(2));
  await page.getByTestId('dash-tab-alert').click();
  await expect(page.getByTestId('dash-alert-triggered')).toBeVisible();
  await expect(page.getByTestId('dash-alert-blocks')).toBeVisible();
  await page.getByTestId('dash-tab-overview').click();
  expect(hashPath(page)).toBe('/statistics/dashboard');
  await expect(page.getByTestId('calls-chart')).toBeVisible();
});

test("the active call report shows the switch's calls up per trunk and carrier", async ({ page }) => {
  const res = await fetch(new URL('/api/switch/calls', baseUrl()), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-switch-key': route.key },
    body: JSON.stringify({
      trunks: [
        { trunk_id: route.ingressTrunk, calls: 6 },
        { trunk_id: route.vendorTrunk, calls: 6 },
      ],
    }),
  });
  expect(res.ok).toBe(true);
  await enterAsAdmin(page, '/statistics/active_call_report');
  await expect(page.locator('h1')).toHaveText('Active Call Report');
  await expect(page.getByTestId('active-reported-at')).toBeVisible();
  const row = page.getByTestId('active-trunks').locator('tbody tr').filter({ hasText: customer.carrierName });
  await expect(row).toContainText('6');
  await expect(page.getByTestId('active-carriers')).toContainText(customer.carrierName);
  await expect(page.getByTestId('active-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
});
