import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { request, signIn, unique } from '../support/api';
import { adminToken, dialog, enterAsAdmin, expectPath, flash, login, logout, open } from '../support/ui';

/**
 * A role made through the roles screen that grants only Configuration > Users (read), given to a new
 * system user made through the user screen; that user sees only what the role allows.
 */
test('a role with only Configuration > Users read limits menu, navigation and API', async ({ page }) => {
  // A long flow: more time when the machine is busy.
  test.slow();
  await adminToken();
  const roleName = unique('readers');
  const user = { name: unique('reader'), password: 'Reader#2026' };

  await enterAsAdmin(page, '/configuration/roles/new');
  // The first page of a new context loads the app and the whole permission catalogue: 30 s when busy.
  await expect(page.getByRole('heading', { name: 'New Role' })).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('role-name').fill(roleName);
  await page.getByTestId('group-Configuration').check();
  await page.getByTestId('perm-readable-/configuration/users').check();
  await page.getByTestId('role-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/configuration/roles');
  await expect(page.getByTestId(`role-${roleName}`)).toBeVisible();

  await open(page, '/configuration/user_management/system/new');
  await expect(page.getByRole('heading', { name: 'New User' })).toBeVisible();
  await page.getByTestId('field-name').fill(user.name);
  await page.getByTestId('field-first_name').fill('Rita');
  await page.getByTestId('field-last_name').fill('Reader');
  await page.getByTestId('field-email').fill(`${user.name}@example.com`);
  await page.getByTestId('field-passwd').fill(user.password);
  await page.getByRole('tab', { name: 'Access' }).click();
  await page.getByTestId('field-role_id').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: roleName }).click();
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await open(page, `/configuration/user_management/system?name=${user.name}`);
  const row = page.getByRole('row').filter({ has: page.getByTestId(`user-${user.name}`) });
  await expect(row).toContainText(roleName);
  await logout(page);

  // The restricted user lands on the one page its role may read.
  await login(page, user.name, user.password);
  await expectPath(page, '/configuration/users');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  // With no landing page and no dashboard privilege it is asked for one; keep the current page.
  const landing = dialog(page, 'Choose your landing page');
  await expect(landing).toBeVisible();
  await landing.getByRole('button', { name: 'Keep current page' }).click();
  await expect(landing).toBeHidden();

  const menu = page.getByTestId('admin-menu');
  await expect(menu.getByRole('button')).toHaveCount(1);
  await expect(menu.getByTestId('menu-Configuration')).toBeVisible();
  await menu.getByTestId('menu-Configuration').click();
  const panel = page.getByTestId('menu-panel-Configuration');
  await expect(panel.getByRole('link')).toHaveCount(1);
  await expect(panel.getByRole('link')).toHaveText('Users');
  await page.keyboard.press('Escape');

  // Pages outside the role are refused: back to the previous path.
  for (const path of ['/configuration/roles', '/statistics/dashboard', '/configuration/system_setting']) {
    await open(page, path);
    await expectPath(page, '/configuration/users');
  }
  // Role-free pages open.
  await open(page, '/my_profile');
  await expectPath(page, '/my_profile');
  await expect(page.getByRole('heading', { name: 'My Profile' })).toBeVisible();
  await open(page, '/license');
  await expectPath(page, '/license');
  await expect(page.getByTestId('license-text')).toBeVisible();

  // The server refuses the roles API to this user, and still serves what the role grants.
  const token = await signIn(user.name, user.password);
  const roles = await request(api.role.listRoles, { token, query: { page: 0, per_page: 10 } });
  expect(roles.envelope.success).toBe(false);
  expect(roles.status).toBe(403);
  const users = await request(api.user.listUsers, { token, query: { page: 0, per_page: 10 } });
  expect(users.envelope.success).toBe(true);
});
