import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createAdminUser, createRole, FIRST_ADMIN } from '../support/api';
import { adminToken, dialog, enterAs, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Background exports and the scheduler log: an admin starts an export of the sign-in history (its
 * filter applied), lands on the export log where the job's progress shows until the file is ready,
 * downloads it, then finds the job in the scheduler log and runs it again.
 */

test.describe.configure({ mode: 'serial' });

test('an admin exports the sign-in history in the background, follows its progress and downloads the file', async ({
  page,
}) => {
  const token = await adminToken();
  const successes = await call(api.log.listSigninHistory, {
    token,
    query: { result: 'success', per_page: 1 },
  });

  await enterAsAdmin(page, '/log/user_signin_history?result=success');
  await page.getByTestId('export-background').click();
  await expect(flash(page)).toHaveText('Export started: follow it in the export log');
  await expectPath(page, '/log/export_log');

  const mine = await call(api.log.listExportLog, { token, query: { mine: 'true', per_page: 1 } });
  const exp = mine.items[0]!;
  expect(exp.entity).toBe('user_signin_history');
  const row = page.getByTestId('list-export-log').locator(`tr[data-row-key="${exp.id}"]`);
  await expect(row).toContainText(exp.file_name);
  // the entity in the reader's language, not its key
  await expect(row).toContainText('Sign-in history');
  await expect(row.getByTestId('job-status')).toHaveText('Finished', { timeout: 15_000 });
  // The sign-ins of this session may have added rows since the count above: at least that many.
  const progress = await row.getByTestId('job-progress').innerText();
  const [done, total] = progress.split('/').map((x) => Number(x.trim()));
  expect(done).toBe(total);
  expect(done).toBeGreaterThanOrEqual(successes.total);

  const downloading = page.waitForEvent('download');
  await row.getByTestId(`download-${exp.id}`).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe(exp.file_name);
  const lines = fs
    .readFileSync((await file.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  expect(lines[0]).toBe('time (UTC),name,ip,result,reason');
  expect(lines).toHaveLength(done! + 1);
  expect(lines.slice(1).every((l) => l.split(',')[3] === 'success')).toBe(true);
  expect(lines.slice(1).some((l) => l.split(',')[1] === FIRST_ADMIN.name)).toBe(true);
});

test('the scheduler log shows the export job and the daily CDR partition job; a finished job runs again', async ({
  page,
}) => {
  const token = await adminToken();
  const jobs = await call(api.jobs.listSchedulerLog, { token, query: { kind: 'export.csv', per_page: 1 } });
  const job = jobs.items[0]!;

  await enterAsAdmin(page, '/log/scheduler_log?kind=export');
  const row = page.getByTestId('list-scheduler-log').locator(`tr[data-row-key="${job.id}"]`);
  await expect(row).toContainText('export.csv');
  await expect(row.getByTestId('job-status')).toHaveText('Finished');
  await expect(page.getByTestId('recurring-jobs')).toContainText('db.cleansing');
  await expect(page.getByTestId('recurring-jobs')).toContainText('daily 01:00 UTC');

  await row.getByTestId(`rerun-${job.id}`).click();
  const confirm = dialog(page, `Run job #${job.id} (export.csv) again?`);
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText(/^Job #\d+ started$/);
  const again = Number(/#(\d+)/.exec((await flash(page).innerText()) ?? '')?.[1]);
  const newRow = page.getByTestId('list-scheduler-log').locator(`tr[data-row-key="${again}"]`);
  await expect(newRow).toContainText(`Run again of #${job.id}`);
  await expect(newRow.getByTestId('job-status')).toHaveText('Finished', { timeout: 15_000 });
});

test('a role that may only read the scheduler log sees the jobs but no kill or run again', async ({
  page,
}) => {
  const token = await adminToken();
  const PAGE = '/log/scheduler_log';
  const { roleId } = await createRole(token, { privileges: [{ func_name: PAGE, readable: true }] });
  const user = await createAdminUser(token, { roleId, landing_page: PAGE });
  const jobs = await call(api.jobs.listSchedulerLog, { token, query: { kind: 'export.csv', per_page: 1 } });
  const job = jobs.items[0]!;

  await enterAs(page, user.name, user.password, `${PAGE}?kind=export`);
  const row = page.getByTestId('list-scheduler-log').locator(`tr[data-row-key="${job.id}"]`);
  await expect(row.getByTestId('job-status')).toHaveText('Finished');
  await expect(page.locator('[data-testid^="rerun-"], [data-testid^="kill-"]')).toHaveCount(0);
});
