import { expect, test } from '@playwright/test';
import { createCarrierUser, unique } from '../support/api';
import { cdrOf, londonRoute, postCdrs } from '../support/cdrs';
import { pick } from '../support/switch';
import { adminToken, enterAs, enterAsAdmin } from '../support/ui';

/**
 * Statistics, browser proof: a customer's CDRs are posted through the real switch API
 * (POST /api/switch/cdr); the admin dashboard (/statistics/dashboard, Last Hour) then shows them in
 * its figures, its calls-over-time chart and its top customers; the summary report grouped by
 * customer shows the customer's row and totals with a chart; the customer's own portal dashboard
 * shows its figures.
 */

test.describe.configure({ mode: 'serial' });

const CALLS = [
  { duration: 120, answered: true },
  { duration: 60, answered: true },
  { duration: 0, answered: false },
];
let customer: Awaited<ReturnType<typeof createCarrierUser>>;

test.beforeAll(async () => {
  const token = await adminToken();
  customer = await createCarrierUser(token, { name: unique('StatsCustomer') });
  const route = await londonRoute(token, customer.clientId, 'stats');
  const start = Math.floor(Date.now() / 1000) * 1000 - 120_000;
  const cdrs = CALLS.map((c, i) =>
    cdrOf({
      callId: unique(`stats-call-${i}`),
      start,
      duration: c.duration,
      answered: c.answered,
      ingressTrunk: route.ingressTrunk,
      egressTrunk: route.vendorTrunk,
      sourceIp: route.sourceIp,
      dnis: '442071234567',
    }),
  );
  const stored = await postCdrs(route.key, cdrs, 'stats-batch');
  expect(stored.stored).toBe(3);
  // 180 s at 0.06/min
  expect(stored.revenue).toBe('0.180000');
});

test('the dashboard shows the ingested calls: figures, chart and top customers', async ({ page }) => {
  await enterAsAdmin(page, '/statistics/dashboard');
  await expect(page.getByTestId('dash-range')).toContainText('Last Hour');
  const top = page.getByTestId('top-customers').locator('tr').filter({ hasText: customer.carrierName });
  await expect(top).toContainText('3');
  await expect(top).toContainText('3.00'); // minutes
  const attempts = Number(
    (await page.getByTestId('dash-attempts').locator('.ant-statistic-content').innerText()).replace(
      /\D/g,
      '',
    ),
  );
  expect(attempts).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('dash-revenue')).toBeVisible();
  await expect(page.getByTestId('dash-asr')).not.toContainText('–');
  await expect(page.getByTestId('calls-chart').locator('svg path.recharts-area-area').first()).toBeVisible();
  // another quick range and auto refresh are choices that change the query
  await pick(page, page.getByTestId('dash-range'), 'Last 24 Hours');
  await expect(page).toHaveURL(/range=last_24h/);
  await expect(top).toContainText('3');
  await pick(page, page.getByTestId('dash-refresh'), 'Every 3 minutes');
  await expect(page).toHaveURL(/refresh=3/);
});

test('the summary report grouped by customer shows its row, the totals and a chart', async ({ page }) => {
  await enterAsAdmin(page, '/statistics/summary_report');
  await pick(page, page.getByTestId('report-group-by'), 'Customer');
  await page.keyboard.press('Escape');
  await page.getByTestId('report-run').click();
  await expect(page).toHaveURL(/group_by=customer/);
  const row = page.getByTestId('report-table').locator('tbody tr').filter({ hasText: customer.carrierName });
  await expect(row).toContainText('3.00');
  await expect(row.locator('td').nth(1)).toHaveText('3');
  await expect(row).toContainText('0.18');
  await expect(row).toContainText('66.67'); // ASR
  await expect(page.getByTestId('report-totals')).toContainText('Total');
  await expect(page.getByTestId('report-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
});

test("the customer's analytics dashboard shows its own figures", async ({ page }) => {
  await enterAs(page, customer.name, customer.password, '/clients/management/analytics_dashboard');
  await expect(page.getByTestId('analytics-today-attempts')).toContainText('3');
  await expect(page.getByTestId('analytics-today-minutes')).toContainText('3.00');
  await expect(page.getByTestId('analytics-today-money')).toContainText('0.18');
  await expect(page.getByTestId('analytics-month-attempts')).toContainText('3');
  await expect(page.getByTestId('calls-chart')).toBeVisible();
});
