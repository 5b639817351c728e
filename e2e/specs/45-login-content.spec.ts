import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call } from '../support/api';
import { adminToken, enterAsAdmin, open } from '../support/ui';

/**
 * Configuration > Login Page Content: the title and text every visitor of the sign-in page sees,
 * with a preview while typing; put back as they were afterwards (other specs sign in too).
 */
let token: string;
let before: { title: string; content: string };

test.beforeAll(async () => {
  token = await adminToken();
  const b = await call(api.config.getLoginBranding, {});
  before = { title: b.title, content: b.content };
});
test.afterAll(async () => {
  await call(api.config.patchLoginBranding, { token, body: before });
});

test('an admin writes the sign-in page’s title and announcement; a visitor sees them', async ({
  page,
  browser,
}) => {
  await enterAsAdmin(page, '/configuration/login_content');
  await expect(page.locator('h1')).toHaveText('Login Page Content');
  await page.getByTestId('login-content-title').fill('Welcome to Carrier NOC');
  await page
    .getByTestId('login-content-text')
    .fill('Maintenance Sunday 02:00-04:00 UTC.\nNOC: +44 20 7946 0000');
  // the preview follows the typing
  const preview = page.getByTestId('login-content-preview');
  await expect(preview).toContainText('Welcome to Carrier NOC');
  await expect(preview).toContainText('Maintenance Sunday 02:00-04:00 UTC.');
  await page.getByTestId('login-content-save').click();
  await expect(page.getByTestId('flash')).toBeVisible();

  const visitor = await browser.newContext();
  const v = await visitor.newPage();
  await open(v, '/auth/login');
  await expect(v.getByRole('heading', { name: 'Welcome to Carrier NOC' })).toBeVisible();
  await expect(v.getByText('NOC: +44 20 7946 0000')).toBeVisible();
  await visitor.close();
});
