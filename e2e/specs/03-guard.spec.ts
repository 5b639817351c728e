import { expect, test } from '@playwright/test';
import { createAgent, createCarrierUser } from '../support/api';
import { adminToken, enterAs, enterAsAdmin, expectPath, HOME, loginForm, open } from '../support/ui';

/** The navigation guard of spec 01 section 4. */

test.beforeAll(async () => {
  await adminToken();
});

test('signed out: private paths go to the login page, public routes open', async ({ page }) => {
  for (const path of [
    '/statistics/dashboard',
    '/configuration/roles',
    '/my_profile',
    '/clients/management/analytics_dashboard',
    '/agents/management/agent_dashboard',
    '/logout',
  ]) {
    await open(page, path);
    await expectPath(page, '/auth/login');
    await expect(loginForm(page).submit).toBeVisible();
  }
  await page.goto('/');
  await expectPath(page, '/auth/login');
  await expect(page).toHaveTitle('Sign in - Tandem');
  // No favicon configured: the default one.
  await expect(page.locator('link#favicon')).toHaveAttribute('href', '/favicon.svg');

  // Public routes open without a session and show no menu.
  await open(page, '/auth/reset_password');
  await expectPath(page, '/auth/reset_password');
  await expect(page.getByText('Reset your password')).toBeVisible();
  await expect(page).toHaveTitle('Reset your password - Tandem');

  await open(page, '/auth/registration');
  await expectPath(page, '/auth/registration');
  await expect(page).toHaveTitle('Register - Tandem');

  await open(page, '/error/form');
  await expectPath(page, '/error/form');
  await expect(page.getByText('Something went wrong')).toBeVisible();
  await expect(page.getByTestId('frame-header')).toHaveCount(0);
});

test('signed-in admin: login page and root go home; portal paths send back to the previous path', async ({
  page,
}) => {
  await enterAsAdmin(page, HOME.admin);

  await open(page, '/auth/login');
  await expectPath(page, HOME.admin);
  await page.goto('/');
  await expectPath(page, HOME.admin);

  // Navigation through the menu sets the title.
  await page.getByTestId('menu-Configuration').click();
  await page
    .getByTestId('menu-panel-Configuration')
    .getByRole('link', { name: 'Roles', exact: true })
    .click();
  await expectPath(page, '/configuration/roles');
  await expect(page).toHaveTitle('Roles - Tandem');

  for (const path of [
    '/clients/management/analytics_dashboard',
    '/clients/tickets/ticket',
    '/agents/management/agent_dashboard',
    '/profile/edit',
  ]) {
    await open(page, path);
    await expectPath(page, '/configuration/roles');
    await expect(page.getByRole('heading', { name: 'Roles' })).toBeVisible();
  }

  await open(page, '/my_profile');
  await expectPath(page, '/my_profile');
  await expect(page).toHaveTitle('My Profile - Tandem');
  await open(page, '/agents/client/client_list');
  await expectPath(page, '/my_profile');
  await expect(page).toHaveTitle('My Profile - Tandem');

  // Public routes stay open when signed in.
  await open(page, '/auth/reset_password');
  await expectPath(page, '/auth/reset_password');
});

test('signed-in client: login page and root go home; admin paths send back to the previous path', async ({
  page,
}) => {
  const client = await createCarrierUser(await adminToken());
  await enterAs(page, client.name, client.password, HOME.client);

  await open(page, '/auth/login');
  await expectPath(page, HOME.client);
  await page.goto('/');
  await expectPath(page, HOME.client);

  await open(page, '/clients/tickets/ticket');
  await expectPath(page, '/clients/tickets/ticket');
  await expect(page).toHaveTitle('Tickets - Tandem');

  for (const path of [
    '/statistics/dashboard',
    '/configuration/roles',
    '/configuration/user_management/system',
    '/agents/management/agent_dashboard',
    '/license',
  ]) {
    await open(page, path);
    await expectPath(page, '/clients/tickets/ticket');
  }

  // Shared pages open for portal users.
  await open(page, '/my_profile');
  await expectPath(page, '/my_profile');
  await expect(page).toHaveTitle('My Profile - Tandem');
  await open(page, '/origination/tickets');
  await expectPath(page, '/my_profile');
});

test('signed-in agent: root goes home; client and admin paths send back', async ({ page }) => {
  const agent = await createAgent(await adminToken());
  await enterAs(page, agent.name, agent.password, HOME.agent);
  await page.goto('/');
  await expectPath(page, HOME.agent);
  for (const path of ['/clients/management/analytics_dashboard', '/configuration/roles']) {
    await open(page, path);
    await expectPath(page, HOME.agent);
  }
});
