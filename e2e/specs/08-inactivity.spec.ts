import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createCarrierUser } from '../support/api';
import { adminToken, enterAs, expectPath, HOME, loginForm } from '../support/ui';

/** The inactivity timer signs the user out at the system timeout (60 s minimum) and says why. */
test('after the inactivity timeout the user is signed out with a message', async ({ page }) => {
  const token = await adminToken();
  const client = await createCarrierUser(token);
  const before = (await call(api.config.getSystemConfig, { token })).inactivity_timeout;
  await call(api.config.patchSystemConfig, { token, body: { inactivity_timeout: 1 } });
  try {
    await page.clock.install();
    await enterAs(page, client.name, client.password, HOME.client);
    await expectPath(page, HOME.client);

    // Activity just before the limit resets the counter.
    await page.clock.fastForward('00:50');
    await page.mouse.move(200, 300);
    await page.mouse.move(220, 320);
    await page.clock.fastForward('00:30');
    await expectPath(page, HOME.client);
    await expect(page.getByTestId('frame-header')).toBeVisible();

    // A full minute without activity ends the session.
    await page.clock.fastForward('01:05');
    await expectPath(page, '/auth/login');
    await expect(loginForm(page).notice).toHaveText(
      'You were signed out after 1 minute(s) without activity.',
    );
    await expect(page.getByTestId('frame-header')).toHaveCount(0);

    // The session is over: private pages send to the login page again.
    await page.goto(`/#${HOME.client}`);
    await expectPath(page, '/auth/login');
  } finally {
    await call(api.config.patchSystemConfig, { token, body: { inactivity_timeout: before } });
  }
  expect((await call(api.config.getSystemConfig, { token })).inactivity_timeout).toBe(before);
});
