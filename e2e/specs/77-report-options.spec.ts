import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createAdminUser, createCarrierUser, createRole, unique } from '../support/api';
import { latestMailTo } from '../support/mail';
import { pick } from '../support/switch';
import { cdrOf, londonRoute, postCdrs } from '../support/cdrs';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * Report options and schedules (issue 11, docs/statistics.md "Options"): an admin gives a sales
 * user (a role without "View All Carriers") one carrier and turns its report grouping off on the
 * user's edit page; that user's dashboard shows that carrier only and its reports cannot be
 * regrouped. The daily channel usage report is mailed and scheduled; a client schedules its own
 * report and manages it from "My schedules".
 */

test.describe.configure({ mode: 'serial' });

let mine: Awaited<ReturnType<typeof createCarrierUser>>;
let other: Awaited<ReturnType<typeof createCarrierUser>>;
let sales: Awaited<ReturnType<typeof createAdminUser>>;

test.beforeAll(async () => {
  const token = await adminToken();
  mine = await createCarrierUser(token, { name: unique('OptMine') });
  other = await createCarrierUser(token, { name: unique('OptOther') });
  for (const [c, prefix] of [
    [mine, 'optm'],
    [other, 'opto'],
  ] as const) {
    const route = await londonRoute(token, c.clientId, prefix);
    const start = Math.floor(Date.now() / 1000) * 1000 - 3 * 60_000;
    const cdrs = [60, 0].map((duration, i) =>
      cdrOf({
        callId: unique(`${prefix}-call-${i}`),
        start: start + i * 1000,
        duration,
        ingressTrunk: route.ingressTrunk,
        egressTrunk: route.vendorTrunk,
        sourceIp: route.sourceIp,
        dnis: '442071234567',
      }),
    );
    await postCdrs(route.key, cdrs, `${prefix}-batch`);
  }
  const { roleId } = await createRole(token, {
    privileges: [
      { func_name: '/statistics/dashboard' },
      { func_name: '/statistics/usage_report' },
      { func_name: '/statistics/summary_report' },
    ],
  });
  sales = await createAdminUser(token, { roleId });
});

test("an admin sets a user's carriers and grouping; the user then sees that carrier only, ungrouped", async ({
  page,
  browser,
}) => {
  await enterAsAdmin(page, `/configuration/system_user_management/edit/${sales.userId}`);
  const card = page.getByTestId('report-options');
  await expect(card).toBeVisible();
  await page.getByTestId('report-options-grouping').click();
  // the visible option of the list (antd also keeps a hidden accessible copy with the option role)
  await pick(page, page.getByTestId('report-options-carriers'), mine.carrierName);
  await page.keyboard.press('Escape');
  await page.getByTestId('report-options-save').click();
  await expect(flash(page)).toHaveText('Statistics options saved');
  const saved = await call(api.stats.getUserReportOptions, {
    token: await adminToken(),
    params: { id: sales.userId },
  });
  expect(saved).toEqual({ report_grouping: false, carrier_ids: [mine.clientId], view_all_carriers: false });

  // The sales user in a browser of its own (this tab keeps the admin's token: enterAs places a
  // token once per tab).
  const user = await browser.newPage();
  await enterAs(user, sales.name, sales.password, '/statistics/dashboard/report?range=last_1h');
  await expect(user.getByTestId('user-menu')).toContainText(sales.name);
  const table = user.getByTestId('dash-report-table');
  await expect(table).toContainText(mine.carrierName);
  await expect(table).not.toContainText(other.carrierName);
  await expect(user.getByTestId('dash-report-totals').locator('td').nth(1)).toHaveText('2');

  await user.goto(user.url().replace(/#.*$/, '#/statistics/usage_report'));
  await expect(user.getByTestId('report-group-by')).toHaveClass(/ant-select-disabled/);
  await expect(user.getByTestId('report-table')).toContainText(mine.carrierName);
  await expect(user.getByTestId('report-table')).not.toContainText(other.carrierName);
  await user.close();
});

test('the daily channel usage report is mailed now and scheduled, and the schedule is in "My schedules"', async ({
  page,
}) => {
  const to = `${unique('chan').toLowerCase()}@carrier.test`;
  await enterAsAdmin(page, '/statistics/daily_channel_usage_report');
  const before = new Date();
  await page.getByTestId('report-email').click();
  await page.getByTestId('report-email-to').fill(to);
  await page.getByTestId('report-email-send').click();
  await expect(flash(page)).toContainText('The report is being sent');
  const mail = await latestMailTo(to, { after: before, subject: /Daily Channel Usage Report/ });
  expect(mail.text).toContain('Peak channels');

  const name = unique('Channels weekly');
  await page.getByTestId('report-schedule').click();
  await page.getByTestId('schedule-name').fill(name);
  await page.getByTestId('schedule-frequency').getByText('Weekly', { exact: false }).click();
  await page.getByTestId('schedule-to').fill(to);
  await page.getByTestId('schedule-save').click();
  await expect(flash(page)).toContainText('Schedule saved: next run');
  await page.getByTestId('report-my-schedules').click();
  const row = page.getByTestId('my-schedules').locator('tbody tr').filter({ hasText: name });
  await expect(row).toContainText('Weekly');
  await row.locator('[data-testid^="my-schedule-toggle-"]').click();
  await expect(row).toContainText('Paused');
});

test('a client schedules its own report and manages it from "My schedules"', async ({ page }) => {
  const to = `${unique('client').toLowerCase()}@carrier.test`;
  await enterAs(page, mine.name, mine.password, '/clients/termination/report');
  await expect(page.getByTestId('report-totals').locator('td').nth(1)).toHaveText('2');
  const name = unique('My daily');
  await page.getByTestId('report-schedule').click();
  await page.getByTestId('schedule-name').fill(name);
  await page.getByTestId('schedule-to').fill(to);
  await page.getByTestId('schedule-save').click();
  await expect(flash(page)).toContainText('Schedule saved: next run');
  await page.getByTestId('report-my-schedules').click();
  const row = page.getByTestId('my-schedules').locator('tbody tr').filter({ hasText: name });
  await expect(row).toContainText(to);
  const sentAt = new Date();
  await row.locator('[data-testid^="my-schedule-run-"]').click();
  await expect(flash(page)).toHaveText('Sending the report now.');
  await latestMailTo(to, { after: sentAt, subject: /Report/ });
  await row.locator('[data-testid^="my-schedule-delete-"]').click();
  // the confirmation's own button (a loose /OK|Confirm|Delete/ also matched the row's Delete)
  await page.getByRole('button', { name: 'Confirm', exact: true }).click();
  await expect(page.getByTestId('my-schedules')).not.toContainText(name);
});
