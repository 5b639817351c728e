import { expect, test, type Page } from '@playwright/test';
import { generate } from 'otplib';
import { createAdminUser } from '../support/api';
import { adminToken, enterAs, expectPath, flash, loginForm, logout, open, submitLogin } from '../support/ui';

/**
 * Issue 18 point 8: two-factor sign-in in the web app. Enabled on My Profile with a code of the
 * secret shown there, then signing in asks for the code; a recovery code signs in once; turning it
 * off with the password makes the password alone enough again.
 */

/** A TOTP code of `secret`, `steps` 30-second steps ahead (a step is accepted only once). */
const totp = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + 30 * steps });

const codeField = (page: Page) => page.getByTestId('login-code');

test('two-factor sign-in: enable on the profile, code at sign-in, recovery code once, disable', async ({
  page,
}) => {
  const user = await createAdminUser(await adminToken());
  await enterAs(page, user.name, user.password, '/my_profile');
  const card = page.getByTestId('two-factor-card');
  await expect(card.getByTestId('two-factor-status')).toContainText('is off');

  // Set up: the secret and the otpauth link are shown; a wrong code is refused.
  await card.getByTestId('two-factor-start').click();
  const secret = ((await card.getByTestId('two-factor-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]+$/);
  await expect(card.getByTestId('two-factor-uri')).toContainText(`otpauth://totp/`);
  await expect(card.getByTestId('two-factor-uri')).toContainText(`secret=${secret}`);
  await card.getByTestId('two-factor-code').fill('000000');
  await card.getByTestId('two-factor-confirm').click();
  await expect(card.getByTestId('two-factor-error')).toBeVisible();
  await card.getByTestId('two-factor-code').fill(await totp(secret));
  await card.getByTestId('two-factor-confirm').click();
  await expect(flash(page)).toContainText('Two-factor sign-in is on');
  const recovery = ((await card.getByTestId('two-factor-recovery').textContent()) ?? '')
    .split('\n')
    .map((c) => c.trim())
    .filter(Boolean);
  expect(recovery).toHaveLength(10);
  await card.getByTestId('two-factor-recovery-done').click();
  await expect(card.getByTestId('two-factor-recovery')).toHaveCount(0);
  await expect(card.getByTestId('two-factor-status')).toContainText('is on');
  await logout(page);

  // The password alone is not enough: the code is asked for, a wrong one is refused.
  await submitLogin(page, user.name, user.password);
  await expect(codeField(page)).toBeVisible();
  await expect(page.getByTestId('frame-header')).toHaveCount(0);
  await codeField(page).fill('123456');
  await loginForm(page).submit.click();
  await expect(loginForm(page).error).toBeVisible();
  await codeField(page).fill(await totp(secret, 1));
  await loginForm(page).submit.click();
  await expect(page.getByTestId('frame-header')).toBeVisible();
  // the sign-in's own navigation home must be over before signing out, or it lands after the logout
  await page.waitForURL(/#\/statistics\/dashboard/);
  await logout(page);

  // A recovery code signs in once.
  await submitLogin(page, user.name, user.password);
  await codeField(page).fill(recovery[0]!);
  await loginForm(page).submit.click();
  await expect(page.getByTestId('frame-header')).toBeVisible();
  // the sign-in's own navigation home must be over before signing out, or it lands after the logout
  await page.waitForURL(/#\/statistics\/dashboard/);
  await logout(page);
  await submitLogin(page, user.name, user.password);
  await codeField(page).fill(recovery[0]!);
  await loginForm(page).submit.click();
  await expect(loginForm(page).error).toBeVisible();
  await expect(page.getByTestId('frame-header')).toHaveCount(0);
  await codeField(page).fill(recovery[1]!);
  await loginForm(page).submit.click();
  await expect(page.getByTestId('frame-header')).toBeVisible();

  // Turned off with the password (a wrong one is refused): the password alone signs in again.
  await open(page, '/my_profile');
  await expectPath(page, '/my_profile');
  await card.getByTestId('two-factor-disable').click();
  await card.getByTestId('two-factor-password').fill('Wrong#2026');
  await card.getByTestId('two-factor-disable-confirm').click();
  await expect(card.getByTestId('two-factor-error')).toBeVisible();
  await card.getByTestId('two-factor-password').fill(user.password);
  await card.getByTestId('two-factor-disable-confirm').click();
  await expect(card.getByTestId('two-factor-status')).toContainText('is off');
  await logout(page);
  await submitLogin(page, user.name, user.password);
  await expect(page.getByTestId('frame-header')).toBeVisible();
});
