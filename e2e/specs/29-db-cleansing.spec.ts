import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createAdminUser, createRole } from '../support/api';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * Configuration > DB Cleansing (issue 10 section 5): an admin sees the CDR day partitions made ahead
 * and what each log holds, changes a retention, runs the cleansing job now and sees its run end; a
 * role that may only read the page sees it all without Save or Run now. The retentions set here are
 * long ones: the shared server's data of the other specs stays.
 */

test.describe.configure({ mode: 'serial' });
const PAGE = '/configuration/auto_rotation_and_cleaning';

test('an admin reads the partitions and logs, changes a retention and runs the cleansing now', async ({
  page,
}) => {
  const token = await adminToken();
  const before = await call(api.cleansing.getCleansing, { token });

  await enterAsAdmin(page, PAGE);
  await expect(page.getByRole('heading', { name: 'DB Cleansing' })).toBeVisible();
  // the seven days after today are made ahead by the job's start-up run
  await expect(page.getByTestId('clean-partitions').getByTestId('partition-ahead').first()).toBeVisible();
  expect(before.partitions.filter((p) => p.state === 'ahead').length).toBeGreaterThanOrEqual(7);
  // the sign-ins of this run are in the sign-in history, none old enough to go
  await expect(page.getByTestId('clean-logs')).toContainText('Sign-in history');
  await expect(page.getByTestId('log-drops-signin_history')).toHaveText('0');

  const field = page.getByTestId('clean-log_retention_days');
  await field.fill('400');
  await page.getByTestId('clean-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');
  expect((await call(api.cleansing.getCleansing, { token })).settings.log_retention_days).toBe(400);
  // the same value on System Setting's side: one setting
  expect((await call(api.config.getSystemSettings, { token })).log_retention_days).toBe(400);

  await page.getByTestId('clean-run').click();
  await expect(flash(page)).toHaveText(/The cleansing job is queued/);
  const last = page.getByTestId('clean-last-run');
  await expect(last.getByTestId('job-status')).toHaveText('Finished', { timeout: 15_000 });
  await expect(last).toContainText('partitions made');

  await call(api.cleansing.putCleansing, { token, body: before.settings });
});

test('a role that may only read DB Cleansing sees it without Save or Run now', async ({ page }) => {
  const token = await adminToken();
  const { roleId } = await createRole(token, { privileges: [{ func_name: PAGE, readable: true }] });
  const user = await createAdminUser(token, { roleId, landing_page: PAGE });
  await enterAs(page, user.name, user.password, PAGE);
  await expect(page.getByText('Your role may view this page but not change the retentions.')).toBeVisible();
  await expect(page.getByTestId('clean-cdr_retention_days')).toBeDisabled();
  await expect(page.getByTestId('clean-save')).toHaveCount(0);
  await expect(page.getByTestId('clean-run')).toHaveCount(0);
  await expect(page.getByTestId('clean-partitions')).toBeVisible();
});
