import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { createAgent, createCarrierUser, request } from '../support/api';
import {
  adminToken,
  expectPath,
  flash,
  FIRST_ADMIN,
  HOME,
  login,
  loginForm,
  logout,
  openUserMenu,
  submitLogin,
  userMenuAction,
} from '../support/ui';

/** After /logout the back button must not get back into the portal. */
async function backStaysOut(page: Page) {
  await page.goBack();
  await expectPath(page, '/auth/login');
  await expect(loginForm(page).submit).toBeVisible();
  await expect(page.getByTestId('frame-header')).toHaveCount(0);
}

// The first admin exists (01-setup.spec.ts, or over the API when this spec runs on its own).
test.beforeAll(async () => {
  await adminToken();
});

test('admin signs in to the dashboard with the module menus and signs out', async ({ page }) => {
  await login(page, FIRST_ADMIN.name, FIRST_ADMIN.passwd);
  await expectPath(page, HOME.admin);
  await expect(page).toHaveTitle('Dashboard - Tandem');
  const menu = page.getByTestId('admin-menu');
  await expect(menu).toBeVisible();
  for (const module of ['Configuration', 'Finance', 'Termination', 'Routing', 'Statistics', 'Tools']) {
    await expect(menu.getByTestId(`menu-${module}`)).toBeVisible();
  }
  await menu.getByTestId('menu-Configuration').click();
  const panel = page.getByTestId('menu-panel-Configuration');
  await expect(panel.getByRole('link', { name: 'Roles', exact: true })).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Mail Sender' })).toBeVisible();
  await panel.getByRole('link', { name: 'Roles', exact: true }).click();
  await expectPath(page, '/configuration/roles');

  // The admin's user menu.
  const um = await openUserMenu(page);
  for (const text of [
    'Open tickets',
    'First Time Wizard',
    'Change Password',
    'About',
    'My Profile',
    'Logout',
  ]) {
    await expect(um.getByText(text, { exact: true })).toBeVisible();
  }
  await page.keyboard.press('Escape');

  const token = await page.evaluate(() => localStorage.getItem('token'));
  expect(token).toBeTruthy();
  await logout(page);
  await backStaysOut(page);
  // The session ended on the server too: the old token is refused.
  expect((await request(api.user.getSessionUser, { token })).envelope.success).toBe(false);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('a wrong password shows the error and keeps the user out', async ({ page }) => {
  await submitLogin(page, FIRST_ADMIN.name, 'Wrong#2026');
  await expect(loginForm(page).error).toHaveText('User name or password is incorrect');
  await expectPath(page, '/auth/login');
  await expect(page.getByTestId('frame-header')).toHaveCount(0);

  // Unknown user: the same kind of error.
  await loginForm(page).name.fill('nobody_here');
  await loginForm(page).submit.click();
  await expect(loginForm(page).error).toHaveText('User name or password is incorrect');
  await expect(page.getByTestId('frame-header')).toHaveCount(0);
});

test('client signs in to the analytics dashboard with the Billing menu', async ({ page }) => {
  const client = await createCarrierUser(await adminToken(), { client_type: 'client' });
  await login(page, client.name, client.password);
  await expectPath(page, HOME.client);
  await expect(page).toHaveTitle('Analytics Dashboard - Tandem');
  const menu = page.getByTestId('client-menu');
  await expect(menu.getByTestId('menu-dashboard')).toHaveText('Dashboard');
  await expect(menu.getByTestId('menu-billing')).toBeVisible();
  await expect(menu.getByTestId('menu-company')).toHaveText(/Termination/);
  await expect(menu.getByTestId('menu-reports')).toBeVisible();
  await expect(page.getByTestId('admin-menu')).toHaveCount(0);

  await menu.getByTestId('menu-billing').hover();
  await expect(page.getByTestId('menu-item-account_summary')).toBeVisible();

  const um = await openUserMenu(page);
  await expect(um.getByTestId('balance')).toContainText('USD');
  await expect(um.getByText('Support Ticket')).toBeVisible();
  await page.keyboard.press('Escape');

  await logout(page);
  await backStaysOut(page);
});

test('vendor signs in to the analytics dashboard without Billing and Products', async ({ page }) => {
  const vendor = await createCarrierUser(await adminToken(), { client_type: 'vendor' });
  await login(page, vendor.name, vendor.password);
  await expectPath(page, HOME.vendor);
  const menu = page.getByTestId('client-menu');
  await expect(menu.getByTestId('menu-dashboard')).toBeVisible();
  await expect(menu.getByTestId('menu-reports')).toBeVisible();
  await expect(menu.getByTestId('menu-billing')).toHaveCount(0);
  await expect(menu.getByTestId('menu-products')).toHaveCount(0);
  await expect(menu.getByText('Billing')).toHaveCount(0);
  await expect(menu.getByText('Products')).toHaveCount(0);

  // A vendor sees no balance in its user menu.
  const um = await openUserMenu(page);
  await expect(um.getByText('My Profile')).toBeVisible();
  await expect(um.getByTestId('balance')).toHaveCount(0);
  await page.keyboard.press('Escape');

  await logout(page);
  await backStaysOut(page);
});

test('agent signs in to the agent dashboard with its menu and referral link', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const agent = await createAgent(await adminToken());
  await login(page, agent.name, agent.password);
  await expectPath(page, HOME.agent);
  await expect(page).toHaveTitle('Agent Dashboard - Tandem');
  const menu = page.getByTestId('agent-menu');
  for (const key of ['dashboard', 'clients', 'products', 'statistics']) {
    await expect(menu.getByTestId(`menu-${key}`)).toBeVisible();
  }
  await expect(page.getByTestId('admin-menu')).toHaveCount(0);

  // The box shows the link with the first 10 characters of the key; copy puts the whole link on the clipboard.
  const origin = new URL(page.url()).origin;
  await expect(page.getByTestId('referral-link')).toHaveValue(
    `${origin}/#/signup/index/${agent.referralKey.slice(0, 10)}`,
  );
  await page.getByTestId('copy-referral').click();
  await expect(flash(page)).toHaveText('The link has been copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
    `${origin}/#/signup/index/${agent.referralKey}`,
  );

  // The same action from the user menu.
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await userMenuAction(page, 'copy_referral');
  await expect(flash(page)).toHaveText('The link has been copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(agent.referralKey);

  await logout(page);
  await backStaysOut(page);
});
