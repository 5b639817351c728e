import { expect, test } from '@playwright/test';
import { createCarrierUser, unique } from '../support/api';
import { adminToken, enterAs, flash } from '../support/ui';
import { pick } from '../support/switch';

/** The client portal's Block List: a customer blocks a DNIS prefix on all its trunks and removes it. */
test('a customer blocks a number range itself and removes the block', async ({ page }) => {
  const client = await createCarrierUser(await adminToken(), { name: unique('BlockCo') });
  await enterAs(page, client.name, client.password, '/clients/management/analytics_dashboard');
  await page.getByTestId('menu-company').hover();
  await page.getByTestId('menu-item-block_list').click();
  await expect(page.locator('h1')).toHaveText('Block List');

  // digits only: the server's words, naming the field
  await pick(page, page.getByTestId('block-field'), 'DNIS');
  await page.getByTestId('block-number').fill('+4420');
  await page.getByTestId('block-add').click();
  await expect(page.getByText('may contain digits only')).toBeVisible();

  await page.getByTestId('block-number').fill('4420794');
  await page.getByTestId('block-note').fill('fraud range');
  await page.getByTestId('block-add').click();
  await expect(flash(page)).toContainText('4420794 is blocked');
  const row = page.getByTestId('block-4420794');
  await expect(row).toContainText('DNIS');
  await expect(row).toContainText('Prefix');
  await expect(row).toContainText('All my trunks');
  await expect(row).toContainText('fraud range');

  // the same again: refused as a duplicate
  await page.getByTestId('block-number').fill('4420794');
  await page.getByTestId('block-add').click();
  await expect(page.getByText('already exists')).toBeVisible();

  await row.getByTestId('block-remove').click();
  await page.getByTestId('confirm-ok').click();
  await expect(flash(page)).toContainText('was removed');
  await expect(page.getByTestId('block-4420794')).toHaveCount(0);
});
