import { expect, test } from '@playwright/test';
import { createCarrierUser, unique } from '../support/api';
import { adminToken, enterAs, expectPath, flash, pngBuffer } from '../support/ui';

/** My Profile: validation of spec 01 section 5, Reset, saving, avatar upload. */
test('profile validates names and e-mail, resets, saves and uploads an avatar', async ({ page }) => {
  // A long flow: more time when the machine is busy.
  test.slow();
  const client = await createCarrierUser(await adminToken());
  await enterAs(page, client.name, client.password, '/my_profile');
  await expectPath(page, '/my_profile');
  await expect(page).toHaveTitle('My Profile - Tandem');
  await expect(page.locator('.ant-breadcrumb')).toHaveText(/My Profile\s*\/\s*Edit/);

  const first = page.getByTestId('profile-first-name');
  const last = page.getByTestId('profile-last-name');
  const email = page.getByTestId('profile-email');
  const submit = page.getByTestId('profile-submit');
  const reset = page.getByTestId('profile-reset');
  await expect(email).toHaveValue(client.email);
  // Nothing changed yet.
  await expect(reset).toBeDisabled();
  await expect(submit).toBeDisabled();

  // Names: letters and spaces only.
  await first.fill('John3');
  await expect(page.getByText('Letters and spaces only')).toBeVisible();
  await expect(reset).toBeEnabled();
  await last.fill('Smith-Jones');
  await expect(page.getByText('Letters and spaces only')).toHaveCount(2);
  await submit.click();
  await expect(flash(page)).toHaveCount(0);
  await first.fill('Jörg Anton');
  await last.fill('Smith');
  await expect(page.getByText('Letters and spaces only')).toHaveCount(0);
  await expect(submit).toBeEnabled();

  // One e-mail only.
  await email.fill(`${client.email};other@example.com`);
  await expect(page.getByTestId('profile-email-warning')).toHaveText('Only one Email is allowed');
  await expect(submit).toBeDisabled();
  await email.fill(client.email);
  await expect(page.getByTestId('profile-email-warning')).toHaveCount(0);
  await expect(submit).toBeEnabled();

  // Submit needs a first name and an e-mail.
  await email.fill('');
  await expect(submit).toBeDisabled();
  await email.fill(client.email);
  await first.fill('');
  await expect(submit).toBeDisabled();

  // Reset brings back the loaded data and is disabled again.
  await first.fill('Someone');
  await reset.click();
  await expect(first).toHaveValue('');
  await expect(last).toHaveValue('');
  await expect(email).toHaveValue(client.email);
  await expect(reset).toBeDisabled();
  await expect(submit).toBeDisabled();

  // Save: trimmed names and a new e-mail, shown in the header and kept after a reload.
  const newEmail = `${unique('mail')}@example.com`;
  await first.fill('  Anna Maria ');
  await last.fill('Schmidt ');
  await email.fill(newEmail);
  await submit.click();
  await expect(flash(page)).toHaveText('Your profile was updated');
  await expect(page.getByTestId('user-name')).toHaveText('Anna Maria');
  await expect(reset).toBeDisabled();
  await page.reload();
  await expect(first).toHaveValue('Anna Maria');
  await expect(last).toHaveValue('Schmidt');
  await expect(email).toHaveValue(newEmail);
  await expect(page.getByTestId('user-name')).toHaveText('Anna Maria');

  // Avatar: only png, jpg, jpeg.
  const fileInput = page.locator('input[type=file]');
  await fileInput.setInputFiles({ name: 'avatar.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(flash(page)).toHaveText("You can't upload files of this type.");
  await expect(reset).toBeDisabled();

  const headerAvatar = page.getByTestId('user-menu').locator('img');
  await expect(headerAvatar).toHaveCount(0);
  await fileInput.setInputFiles({ name: 'avatar.png', mimeType: 'image/png', buffer: pngBuffer(16) });
  await expect(page.getByTestId('profile-avatar').locator('img')).toHaveAttribute('src', /^blob:/);
  await expect(reset).toBeEnabled();
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(flash(page)).toHaveText('Your profile was updated');
  await expect(headerAvatar).toHaveAttribute('src', /\/api\/config\/export\/public\/\d+$/);
  // The uploaded image is served and is a real image.
  await expect
    .poll(() => headerAvatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(16);
  await page.reload();
  await expect(headerAvatar).toHaveAttribute('src', /\/api\/config\/export\/public\/\d+$/);
  await expect(page.getByTestId('profile-avatar').locator('img')).toHaveAttribute(
    'src',
    /\/api\/config\/export\/public\/\d+$/,
  );
});
