import { expect, test } from '@playwright/test';
import { createCarrierUser } from '../support/api';
import {
  adminToken,
  dialog,
  expectPath,
  flash,
  HOME,
  login,
  loginForm,
  logout,
  submitLogin,
  userMenuAction,
} from '../support/ui';

/** The client variant of the change-password dialog: live current-password check, 8-15 characters. */
test('client changes its password; the new one signs in, the old one no longer', async ({ page }) => {
  const client = await createCarrierUser(await adminToken());
  const newPassword = 'Changed#2026';
  await login(page, client.name, client.password);

  const box = dialog(page, 'Change Password');
  await userMenuAction(page, 'change_password', box);
  const current = box.getByTestId('password-current');
  const next = box.getByTestId('password-new');
  const confirm = box.getByTestId('password-confirm');
  const save = page.getByTestId('password-save');
  await expect(save).toBeDisabled();

  // The current password is checked live against the server.
  await current.fill('Wrong#2026');
  await expect(box.getByText('Incorrect Current Password')).toBeVisible();
  await expect(save).toBeDisabled();
  await current.fill(client.password);
  await expect(box.getByText('Incorrect Current Password')).toHaveCount(0);
  await expect(save).toBeEnabled();

  // New and confirmation: 8 to 15 characters and equal.
  await next.fill('Short#1');
  await expect(box.getByText('Password must be 8 to 15 characters')).toBeVisible();
  await next.fill('Much#Too#Long#2026');
  await expect(box.getByText('Password must be 8 to 15 characters')).toBeVisible();
  await next.fill(newPassword);
  await expect(box.getByText('Password must be 8 to 15 characters')).toHaveCount(0);
  await confirm.fill(newPassword + 'x');
  await expect(box.getByText('Passwords do not match')).toBeVisible();
  await save.click();
  await expect(box).toBeVisible();

  // Cancel clears every field.
  await box.getByRole('button', { name: 'Cancel' }).click();
  await expect(box).toBeHidden();
  await userMenuAction(page, 'change_password', box);
  await expect(current).toHaveValue('');
  await expect(next).toHaveValue('');
  await expect(confirm).toHaveValue('');

  await current.fill(client.password);
  await next.fill(newPassword);
  await confirm.fill(newPassword);
  await expect(save).toBeEnabled();
  await save.click();
  await expect(flash(page)).toHaveText('Password changed');
  await expect(box).toBeHidden();

  await logout(page);
  await submitLogin(page, client.name, client.password);
  await expect(loginForm(page).error).toBeVisible();
  await expectPath(page, '/auth/login');
  await loginForm(page).password.fill(newPassword);
  await loginForm(page).submit.click();
  await expectPath(page, HOME.client);
});
