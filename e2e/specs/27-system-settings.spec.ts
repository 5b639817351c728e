import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createAdminUser, createRole } from '../support/api';
import { pick } from '../support/switch';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * Configuration > System Setting: an admin changes the default US IJ rule and the default ring
 * timeout, saves, reloads and sees them kept; an invalid notification address is refused by the
 * server and the error shows on its field; a role that may only read the page sees it read-only.
 */

const PAGE = '/configuration/system_setting';

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  await adminToken();
});

// All specs share one server: put back what this spec changes (the engine prices by the IJ rule).
test.afterAll(async () => {
  await call(api.config.patchSystemConfig, {
    token: await adminToken(),
    body: { default_us_ij_rule: 'inter', default_ring_timeout_s: 60, notify_noc_emails: [] },
  });
});

test('an admin changes the default US IJ rule and ring timeout; they are kept after a reload', async ({
  page,
}) => {
  await enterAsAdmin(page, PAGE);
  await expect(page.getByRole('heading', { name: 'System Setting' })).toBeVisible();
  const ij = page.getByTestId('sys-default_us_ij_rule');
  const ring = page.getByTestId('sys-default_ring_timeout_s');
  await expect(ij).toContainText('Inter rate');

  await pick(page, ij, 'Intra rate');
  await ring.fill('45');
  await page.getByTestId('sys-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');

  await page.reload();
  await expect(page.getByTestId('sys-default_us_ij_rule')).toContainText('Intra rate');
  await expect(page.getByTestId('sys-default_ring_timeout_s')).toHaveValue('45');
  const saved = await call(api.config.getSystemSettings, { token: await adminToken() });
  expect(saved).toMatchObject({ default_us_ij_rule: 'intra', default_ring_timeout_s: 45 });
});

test('an invalid notification e-mail is refused and the error shows on its field', async ({ page }) => {
  await enterAsAdmin(page, PAGE);
  const noc = page.getByTestId('sys-notify_noc_emails');
  await noc.click();
  await page.keyboard.type('noc@example.com');
  await page.keyboard.press('Enter');
  await page.keyboard.type('not-an-email');
  await page.keyboard.press('Enter');
  await page.getByTestId('sys-save').click();

  const item = page.locator('.ant-form-item').filter({ has: noc });
  await expect(item.locator('.ant-form-item-explain-error')).toHaveText(
    'not-an-email has an invalid e-mail format',
  );
  await expect(flash(page)).toHaveCount(0);
  const saved = await call(api.config.getSystemSettings, { token: await adminToken() });
  expect(saved.notify_noc_emails).toEqual([]);

  // Removing the bad address clears the way: the valid one is saved.
  await noc.getByText('not-an-email').locator('..').locator('.ant-select-selection-item-remove').click();
  await page.getByTestId('sys-save').click();
  await expect(flash(page)).toHaveText('Modified successfully');
  await expect(item.locator('.ant-form-item-explain-error')).toHaveCount(0);
  const after = await call(api.config.getSystemSettings, { token: await adminToken() });
  expect(after.notify_noc_emails).toEqual(['noc@example.com']);
});

test('a role that may read but not write the page sees it read-only', async ({ page }) => {
  const token = await adminToken();
  const { roleId } = await createRole(token, { privileges: [{ func_name: PAGE, readable: true }] });
  const user = await createAdminUser(token, { roleId, landing_page: PAGE });
  await enterAs(page, user.name, user.password, PAGE);
  await expect(page.getByTestId('sys-read-only')).toBeVisible();
  await expect(page.getByTestId('sys-save')).toHaveCount(0);
  await expect(page.getByTestId('sys-default_ring_timeout_s')).toBeDisabled();
});

test('a session reload that fails on the way (network) keeps the admin signed in', async ({ page }) => {
  await enterAsAdmin(page, PAGE);
  const ring = page.getByTestId('sys-default_ring_timeout_s');
  await expect(ring).toBeVisible();
  // The save succeeds; the session reload after it loses its request (as when the page is left).
  await page.route(/\/api\/user(\?|$)/, (route) => route.abort());
  await ring.fill('50');
  await page.getByTestId('sys-save').click();
  await expect
    .poll(
      async () =>
        (await call(api.config.getSystemSettings, { token: await adminToken() })).default_ring_timeout_s,
    )
    .toBe(50);
  await page.waitForTimeout(500);
  await page.unroute(/\/api\/user(\?|$)/);
  await expect(page).toHaveURL(new RegExp(`#${PAGE}$`));
  await expect(page.getByRole('heading', { name: 'System Setting' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
});
