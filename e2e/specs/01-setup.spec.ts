import { E2E_SETUP_CODE } from '../support/setup-code';
import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call } from '../support/api';
import { expectPath, FIRST_ADMIN, HOME, loginForm, open } from '../support/ui';

/**
 * Runs first (file name): the database is empty, so the first admin is created here through the UI.
 * Every other spec signs in as FIRST_ADMIN.
 */
test.describe.configure({ mode: 'serial' });

test('with no user, / and the login page go to /setup', async ({ page }) => {
  expect((await call(api.user.hasUser)).has_user).toBe(false);
  await page.goto('/');
  await expectPath(page, '/setup');
  await expect(page.getByText('Create the first administrator')).toBeVisible();

  await open(page, '/auth/login');
  await expectPath(page, '/setup');
});

test('setup validates the form, creates the admin, signs in and opens the wizard', async ({ page }) => {
  await open(page, '/setup');
  const name = page.getByTestId('setup-name');
  const email = page.getByTestId('setup-email');
  const password = page.getByTestId('setup-password');
  const confirm = page.getByTestId('setup-confirm');
  const submit = page.getByTestId('setup-submit');

  await submit.click();
  await expect(page.getByText('User name is required')).toBeVisible();
  await expect(page.getByText('Password is required').first()).toBeVisible();

  await name.fill(FIRST_ADMIN.name);
  await email.fill('not-an-email');
  await password.fill('short');
  await confirm.fill('short');
  await submit.click();
  await expect(page.getByText('Password must be 8 to 15 characters')).toHaveCount(2);
  await expect(page.locator('.ant-form-item-explain-error', { hasText: /e-?mail/i })).toBeVisible();

  await password.fill('a'.repeat(16));
  await confirm.fill('a'.repeat(16));
  await expect(page.getByText('Password must be 8 to 15 characters')).toHaveCount(2);

  await email.fill(FIRST_ADMIN.email);
  await password.fill(FIRST_ADMIN.passwd);
  await confirm.fill(FIRST_ADMIN.passwd + 'x');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(page.getByText('Password must be 8 to 15 characters')).toHaveCount(0);
  // Nothing was created while the form is invalid.
  await submit.click();
  expect((await call(api.user.hasUser)).has_user).toBe(false);

  await confirm.fill(FIRST_ADMIN.passwd);
  await expect(page.getByText('Passwords do not match')).toHaveCount(0);
  // Without the code the server printed at start, the instance is not claimed.
  await page.getByTestId('setup-code').fill('wrong-code');
  await submit.click();
  await expect(page.getByText(/not the one the server printed/).first()).toBeVisible();
  expect((await call(api.user.hasUser)).has_user).toBe(false);
  await page.getByTestId('setup-code').fill(E2E_SETUP_CODE);
  const visited: string[] = [];
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame()) visited.push(new URL(f.url()).hash);
  });
  await submit.click();

  await expectPath(page, '/first_time_wizard');
  // Straight to the wizard: no detour through the login page or the dashboard.
  expect(visited.filter((h) => !/^#\/(setup|first_time_wizard)$/.test(h))).toEqual([]);
  await expect(page.getByTestId('frame-header')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'First Time Wizard' })).toBeVisible();
  await expect(page.getByTestId('user-name')).toHaveText(FIRST_ADMIN.name);
  expect((await call(api.user.hasUser)).has_user).toBe(true);

  // Once a user exists, /setup sends a signed-in user back where they came from.
  await open(page, '/setup');
  await expectPath(page, '/first_time_wizard');
  await expect(page.getByRole('heading', { name: 'First Time Wizard' })).toBeVisible();
});

test('after setup, /setup and / lead a signed-out visitor to the login page', async ({ page }) => {
  await open(page, '/setup');
  await expectPath(page, '/auth/login');
  await expect(loginForm(page).submit).toBeVisible();
  await page.goto('/');
  await expectPath(page, '/auth/login');

  // The admin created through the form signs in and lands on its home.
  await loginForm(page).name.fill(FIRST_ADMIN.email);
  await loginForm(page).password.fill(FIRST_ADMIN.passwd);
  await loginForm(page).submit.click();
  await expectPath(page, HOME.admin);
});
