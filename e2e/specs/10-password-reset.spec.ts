import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createCarrierUser } from '../support/api';
import { latestMailTo, linkIn } from '../support/mail';
import { adminToken, enterAsAdmin, expectPath, HOME, loginForm, open, submitLogin } from '../support/ui';

/** Forgot password: the link from the e-mail sets a new password once. */
test('a reset link from the e-mail sets a new password; the link does not work twice', async ({
  page,
  browser,
}) => {
  // A long flow: more time when the machine is busy.
  test.slow();
  const client = await createCarrierUser(await adminToken());
  const newPassword = 'Reset#2026ok';

  await open(page, '/auth/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expectPath(page, '/auth/reset_password');
  await expect(page).toHaveTitle('Reset your password - Tandem');
  await page.getByTestId('reset-submit').click();
  await expect(page.getByText('User name or e-mail is required')).toBeVisible();

  const sentAfter = new Date();
  await page.getByTestId('reset-name').fill(client.email);
  await page.getByTestId('reset-submit').click();
  await expect(page.getByTestId('reset-sent')).toHaveText(
    'If the account exists, a reset link is on its way to its e-mail address.',
  );

  const mail = await latestMailTo(client.email, { after: sentAfter });
  const link = linkIn(mail);
  const origin = new URL(page.url()).origin;
  expect(link.startsWith(`${origin}/#/auth/reset/`)).toBe(true);

  await page.goto(link);
  await expect(page.getByText('Reset your password')).toBeVisible();
  await page.getByTestId('reset-password').fill('short');
  await page.getByTestId('reset-confirm').fill('other');
  await page.getByTestId('reset-save').click();
  await expect(page.getByText('Password must be 8 to 15 characters').first()).toBeVisible();
  await page.getByTestId('reset-password').fill(newPassword);
  await page.getByTestId('reset-confirm').fill(newPassword + '!');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByTestId('reset-confirm').fill(newPassword);
  await page.getByTestId('reset-save').click();
  await expect(page.getByTestId('reset-done')).toHaveText('Your password was changed. You can sign in now.');

  // The old password no longer works, the new one does.
  await submitLogin(page, client.name, client.password);
  await expect(loginForm(page).error).toBeVisible();
  await loginForm(page).password.fill(newPassword);
  await loginForm(page).submit.click();
  await expectPath(page, HOME.client);

  // The same link a second time is refused, and the password stays.
  const again = await browser.newContext();
  const second = await again.newPage();
  await second.goto(link);
  await second.getByTestId('reset-password').fill('Another#2026');
  await second.getByTestId('reset-confirm').fill('Another#2026');
  await second.getByTestId('reset-save').click();
  await expect(second.getByTestId('reset-error')).toHaveText(
    'This password reset link is invalid or has expired',
  );
  await expect(second.getByTestId('reset-done')).toHaveCount(0);
  await submitLogin(second, client.name, 'Another#2026');
  await expect(loginForm(second).error).toBeVisible();
  await again.close();
});

test('Log > Retrieve Password Log shows the mail sent and the password changed', async ({ page }) => {
  const token = await adminToken();
  const client = await createCarrierUser(token);
  const sentAfter = new Date();
  await call(api.auth.requestPasswordReset, { body: { email_or_name: client.name } });
  const mail = await latestMailTo(client.email, { after: sentAfter });
  const resetToken = /#\/auth\/reset\/([A-Za-z0-9_-]+)/.exec(linkIn(mail))![1]!;
  await call(api.auth.resetPassword, { params: { token: resetToken }, body: { password: 'Reset#2026ok' } });

  await enterAsAdmin(page, '/log/retrieve_password_log');
  await expect(page.locator('h1')).toHaveText('Retrieve Password Log');
  const search = page.getByTestId('filter-name').locator('input');
  await search.fill(client.email);
  await search.press('Enter');
  const rows = page.locator('tbody tr.ant-table-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText('Password changed');
  await expect(rows.nth(1)).toContainText('Reset mail sent');
  await expect(rows.nth(1)).toContainText(client.name);
});
