import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { createCarrierUser, createRole, request, signIn } from '../support/api';
import { adminToken, dialog, enterAsAdmin, expectPath, flash } from '../support/ui';

test('carrier users: tab, filters and rows per page kept in the URL, deactivate and activate', async ({
  page,
}) => {
  // A long flow: more time when the machine is busy.
  test.slow();
  const client = await createCarrierUser(await adminToken());
  await enterAsAdmin(page, '/configuration/user_management/system');
  await page.getByRole('tab', { name: 'Carrier users' }).click();
  await expectPath(page, '/configuration/user_management/carrier');

  // A name filter goes into the URL and survives a reload.
  const search = page.getByTestId('filter-name').getByRole('searchbox');
  await search.fill(client.name);
  await search.press('Enter');
  await expect(page).toHaveURL(new RegExp(`[?&]name=${client.name}(&|$)`));
  const row = page.getByRole('row').filter({ has: page.getByTestId(`user-${client.name}`) });
  await expect(row).toBeVisible();
  await expect(row).toContainText(client.carrierName);
  await expect(page.getByTestId('list-total')).toHaveText('Total 1');

  // Rows per page.
  await page.locator('.ant-pagination-options .ant-select').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: '10 / page' }).click();
  await expect(page).toHaveURL(/[?&]per_page=10(&|$)/);

  await page.reload();
  await expectPath(page, '/configuration/user_management/carrier');
  await expect(page).toHaveURL(new RegExp(`[?&]name=${client.name}(&|$)`));
  await expect(page).toHaveURL(/[?&]per_page=10(&|$)/);
  await expect(search).toHaveValue(client.name);
  await expect(page.locator('.ant-pagination-options')).toContainText('10 / page');
  await expect(row).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Carrier users', selected: true })).toBeVisible();

  // Deactivate: the confirm dialog; Cancel keeps the user active.
  await row.getByRole('button', { name: 'Deactivate' }).click();
  const confirmDeactivate = dialog(page, `Deactivate ${client.name}?`);
  await expect(confirmDeactivate).toBeVisible();
  await confirmDeactivate.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirmDeactivate).toBeHidden();
  await expect(row).toContainText('Active');

  await row.getByRole('button', { name: 'Deactivate' }).click();
  await confirmDeactivate.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText('Deactivated successfully');
  await expect(row).toContainText('Inactive');
  // An inactive user cannot sign in.
  expect(
    (await request(api.auth.signIn, { body: { email_or_name: client.name, password: client.password } }))
      .envelope.success,
  ).toBe(false);

  // The status filter, also in the URL.
  await page.getByTestId('filter-active').click();
  await page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: 'Inactive' }).click();
  await expect(page).toHaveURL(/[?&]active=false(&|$)/);
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Activate' }).click();
  const confirmActivate = dialog(page, `Activate ${client.name}?`);
  await expect(confirmActivate).toBeVisible();
  await confirmActivate.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText('Activated successfully');
  // Active again: no longer matches the Inactive filter.
  await expect(row).toHaveCount(0);
  await expect(page.getByTestId('list-users').locator('.ant-empty-description')).toHaveText(
    'Nothing in Users matches the filters.',
  );
  expect(await signIn(client.name, client.password)).toBeTruthy();
});

test('deleting a role asks for confirmation with the counts', async ({ page }) => {
  const token = await adminToken();
  const { roleId, roleName } = await createRole(token, {
    privileges: [{ func_name: '/configuration/users' }],
  });
  await enterAsAdmin(page, `/configuration/roles?role_name=${roleName}`);
  const row = page.getByRole('row').filter({ has: page.getByTestId(`role-${roleName}`) });
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Delete' }).click();
  const confirm = dialog(page, `Delete ${roleName}?`);
  await expect(confirm).toBeVisible();
  await expect(confirm.getByTestId('delete-counts')).toContainText('1');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toBeVisible();

  await row.getByRole('button', { name: 'Delete' }).click();
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirm' }).click();
  await expect(flash(page)).toHaveText('Deleted successfully');
  await expect(row).toHaveCount(0);
  const gone = await request(api.role.getRole, { token, params: { id: roleId } });
  expect(gone.envelope.success).toBe(false);
});
