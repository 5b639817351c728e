import { expect, test, type Page } from '@playwright/test';
import { createCarrierUser } from '../support/api';
import { adminToken, enterAs, HOME, open, openUserMenu } from '../support/ui';

async function chooseLanguage(page: Page, menuLabel: string, lang: 'en' | 'de') {
  const menu = await openUserMenu(page);
  // The Language submenu opens on click (hovering would open it while the pointer passes by).
  const label = menu.getByText(menuLabel, { exact: true });
  const option = page.getByTestId(`lang-${lang}`);
  await label.click();
  // a click while the page below is still settling can toggle the submenu shut again: once more
  await option.waitFor({ state: 'visible', timeout: 3000 }).catch(() => label.click());
  await option.click();
}

/** User menu > Language: the frame follows the choice, after a reload and at the next sign-in. */
test('switching to Deutsch translates the frame and survives a reload; back to English', async ({
  page,
  browser,
}) => {
  // A long flow: more time when the machine is busy.
  test.slow();
  const client = await createCarrierUser(await adminToken());
  await enterAs(page, client.name, client.password, HOME.client);
  await expect(page.getByTestId('menu-billing')).toHaveText(/Billing/);

  await chooseLanguage(page, 'Language', 'de');
  await expect(page.getByTestId('menu-billing')).toHaveText(/Abrechnung/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  let menu = await openUserMenu(page);
  await expect(menu.getByTestId('usermenu-my_profile')).toHaveText('Mein Profil');
  await expect(menu.getByTestId('usermenu-logout')).toHaveText('Abmelden');
  await expect(menu.getByTestId('usermenu-change_password')).toHaveText('Passwort ändern');
  await expect(menu.getByText('Sprache', { exact: true })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page).toHaveTitle('Analyse-Dashboard - Tandem');

  await page.reload();
  await expect(page.getByTestId('menu-billing')).toHaveText(/Abrechnung/);
  menu = await openUserMenu(page);
  await expect(menu.getByTestId('usermenu-logout')).toHaveText('Abmelden');
  await page.keyboard.press('Escape');
  await open(page, '/my_profile');
  await expect(page.getByRole('heading', { name: 'Mein Profil' })).toBeVisible();

  // The choice is kept for the user: a sign-in from another browser gets German too.
  const other = await browser.newContext();
  const second = await other.newPage();
  await enterAs(second, client.name, client.password, HOME.client);
  await expect(second.getByTestId('menu-billing')).toHaveText(/Abrechnung/);
  await other.close();

  await open(page, HOME.client);
  await chooseLanguage(page, 'Sprache', 'en');
  await expect(page.getByTestId('menu-billing')).toHaveText(/Billing/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  menu = await openUserMenu(page);
  await expect(menu.getByTestId('usermenu-my_profile')).toHaveText('My Profile');
  await expect(menu.getByTestId('usermenu-logout')).toHaveText('Logout');
  await page.keyboard.press('Escape');
  await page.reload();
  await expect(page.getByTestId('menu-billing')).toHaveText(/Billing/);
});
