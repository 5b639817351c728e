import { expect, test } from '@playwright/test';

test('the app is served and titled Tandem', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Tandem/);
});
