import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import ExcelJS from 'exceljs';
import { baseUrl, call, createCarrierUser, unique } from '../support/api';
import { latestMailTo } from '../support/mail';
import { cdrOf, londonRoute, postCdrs } from '../support/cdrs';
import { openTab } from '../support/switch';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * The report screens (issue 11, docs/statistics.md "Reports"), browser proof: a customer's calls
 * are posted through the real switch API; the admin's Disconnect Causes show them by cause with a
 * pie chart; the Usage Report grouped by customer is exported to XLSX from the export log and
 * opened; the QoS Summary is sent by e-mail and scheduled, the schedule sent now from the
 * scheduled report log, both mails arrive and the log shows them sent; the daily channel usage
 * shows the calls up at once; the customer's own termination report shows its figures only.
 */

test.describe.configure({ mode: 'serial' });

const CALLS = [
  { duration: 120, answered: true },
  { duration: 60, answered: true },
  { duration: 0, answered: false },
];
let customer: Awaited<ReturnType<typeof createCarrierUser>>;
let other: Awaited<ReturnType<typeof createCarrierUser>>;
let customerTrunk: number;

async function postCalls(token: string, carrier: { clientId: number }, calls: typeof CALLS) {
  const route = await londonRoute(token, carrier.clientId, 'rep');
  const start = Math.floor(Date.now() / 1000) * 1000 - 120_000;
  const cdrs = calls.map((c, i) =>
    cdrOf({
      callId: unique(`rep-call-${i}`),
      start,
      duration: c.duration,
      answered: c.answered,
      ingressTrunk: route.ingressTrunk,
      egressTrunk: route.vendorTrunk,
      sourceIp: route.sourceIp,
      dnis: '442071234567',
    }),
  );
  expect((await postCdrs(route.key, cdrs, 'rep-batch')).stored).toBe(calls.length);
  return route.ingressTrunk;
}

test.beforeAll(async () => {
  const token = await adminToken();
  customer = await createCarrierUser(token, { name: unique('RepCustomer') });
  other = await createCarrierUser(token, { name: unique('RepOther') });
  customerTrunk = await postCalls(token, customer, CALLS);
  await postCalls(token, other, [{ duration: 300, answered: true }]);
});

const rowOf = (page: Page, text: string) =>
  page.getByTestId('report-table').locator('tbody tr').filter({ hasText: text });

test("disconnect causes: the customer's calls by cause, with shares and a pie chart", async ({ page }) => {
  await enterAsAdmin(page, `/statistics/disconnect_causes?customer_ids=${customer.clientId}`);
  await expect(page.locator('h1')).toHaveText('Disconnect Causes');
  await expect(rowOf(page, '200').locator('td').nth(1)).toHaveText('2');
  await expect(rowOf(page, '200')).toContainText('66.67'); // share of the attempts
  await expect(rowOf(page, '486').locator('td').nth(1)).toHaveText('1');
  await expect(page.getByTestId('report-totals')).toContainText('Total');
  await expect(page.getByTestId('report-totals').locator('td').nth(1)).toHaveText('3');
  await expect(page.getByTestId('report-chart')).toHaveAttribute('data-kind', 'pie');
  await expect(page.getByTestId('report-chart').locator('.recharts-pie-sector').first()).toBeVisible();
});

test('usage report grouped by customer, exported to XLSX and opened: its totals row is the figures', async ({
  page,
}) => {
  await enterAsAdmin(
    page,
    `/statistics/usage_report?group_by=customer&customer_ids=${customer.clientId},${other.clientId}`,
  );
  await expect(rowOf(page, customer.carrierName)).toContainText('3.00'); // minutes
  await expect(rowOf(page, other.carrierName)).toContainText('5.00');
  await expect(page.getByTestId('report-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
  await page.getByTestId('export-background-xlsx').click();
  await expect(flash(page)).toHaveText('Export started: follow it in the export log');
  const exp = (
    await call(api.log.listExportLog, { token: await adminToken(), query: { mine: 'true', per_page: 1 } })
  ).items[0]!;
  expect(exp.file_name).toMatch(/^usage_report-.*\.xlsx$/);
  const row = page.getByTestId('list-export-log').locator(`tr[data-row-key="${exp.id}"]`);
  expect(exp.entity).toBe('report.usage_report');
  await expect(row).toContainText('Usage Report');
  await expect(row.getByTestId('job-status')).toHaveText('Finished', { timeout: 15_000 });
  const downloading = page.waitForEvent('download');
  await row.getByTestId(`download-${exp.id}`).click();
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile((await (await downloading).path())!);
  const sheet = book.worksheets[0]!;
  expect(sheet.name).toBe('Usage Report');
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header.slice(0, 4)).toEqual(['Customer', 'Attempts', 'Answered', 'Non-zero calls']);
  const values = (r: number) => (sheet.getRow(r).values as unknown[]).slice(1);
  expect(sheet.rowCount).toBe(4);
  const total = values(4);
  expect(total[0]).toBe('Total');
  expect(total[1]).toBe(4);
  expect(total[header.indexOf('Minutes')]).toBe(8);
});

test('the QoS summary is sent by e-mail and scheduled; the schedule is sent now from the log', async ({
  page,
}) => {
  const to = `${unique('noc').toLowerCase()}@carrier.test`;
  await enterAsAdmin(page, `/statistics/qos_summary?customer_ids=${customer.clientId}`);
  await expect(rowOf(page, customer.carrierName)).toContainText('66.67'); // ASR
  const before = new Date();
  await page.getByTestId('report-email').click();
  await page.getByTestId('report-email-to').fill(to);
  await page.getByTestId('report-email-send').click();
  await expect(flash(page)).toContainText('The report is being sent');
  const mail = await latestMailTo(to, { after: before, subject: /QoS Summary/ });
  expect(mail.text).toContain('Attempts: 3');
  expect(mail.text).toContain('Answered: 2');

  await page.getByTestId('report-schedule').click();
  const name = unique('Daily QoS');
  await page.getByTestId('schedule-name').fill(name);
  await page.getByTestId('schedule-to').fill(to);
  await page.getByTestId('schedule-save').click();
  await expect(flash(page)).toContainText('Schedule saved: next run');

  await page.goto(`${baseUrl()}/#/log/scheduled_report_log`);
  await openTab(page, 'Schedules');
  const schedule = page.getByTestId('list-report-schedules').locator('tr').filter({ hasText: name });
  await expect(schedule).toContainText('Daily (the day before), 06:00');
  const sentAt = new Date();
  await schedule.locator('[data-testid^="schedule-run-"]').click();
  await expect(flash(page)).toHaveText('Sending the report now.');
  const scheduled = await latestMailTo(to, { after: sentAt, subject: /QoS Summary/ });
  expect(scheduled.subject).toMatch(/QoS Summary \d{4}-\d{2}-\d{2} 00:00 – \d{4}-\d{2}-\d{2} 00:00/);
  await openTab(page, 'Sent reports');
  const logged = page.getByTestId('list-scheduled-report-log').locator('tr').filter({ hasText: name });
  await expect(logged).toContainText('Sent', { timeout: 15_000 });
  await expect(logged).toContainText(to);
});

test('daily channel usage: the three calls up at once are the trunk peak of the day', async ({ page }) => {
  await enterAsAdmin(page, `/statistics/daily_channel_usage_report?trunk_ids=${customerTrunk}`);
  await expect(page.locator('h1')).toHaveText('Daily Channel Usage Report');
  const row = page.getByTestId('report-table').locator('tbody tr').first();
  await expect(row.locator('td').nth(2)).toHaveText('3');
  await expect(row.locator('td').nth(4)).toHaveText('3');
  await expect(page.getByTestId('report-totals').locator('td').nth(2)).toHaveText('3');
  await expect(page.getByTestId('report-chart').locator('.recharts-bar-rectangle').first()).toBeVisible();
});

test("the customer's termination report shows its own figures only, whatever ids the link carries", async ({
  page,
}) => {
  await enterAs(
    page,
    customer.name,
    customer.password,
    `/clients/termination/report?customer_ids=${other.clientId}`,
  );
  await expect(page.locator('h1')).toHaveText('Report');
  await expect(page.getByTestId('report-totals').locator('td').nth(1)).toHaveText('0');
  await page.goto(`${baseUrl()}/#/clients/termination/report`);
  await expect(page.getByTestId('report-totals').locator('td').nth(1)).toHaveText('3');
  await expect(page.getByTestId('report-totals')).toContainText('0.18'); // its spend, never the cost
  await expect(page.getByTestId('report-table')).not.toContainText('Cost');
  await expect(page.getByTestId('report-table')).not.toContainText(other.carrierName);
});
