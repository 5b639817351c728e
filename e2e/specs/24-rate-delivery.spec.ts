import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { unique } from '../support/api';
import { latestMailTo, linkIn } from '../support/mail';
import { pick, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { adminToken, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Sending rate decks, browser proof: a rate e-mail template made on its screen; the rate table sent
 * from the rate table list to the carrier whose trunk uses it (preselected); the e-mail read from the
 * SMTP capture; its link opened without signing in downloads the deck; the rate delivery log shows
 * the delivery as downloaded.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const templateName = unique('deck_mail');
let table: { id: number; name: string };
let vendor: Awaited<ReturnType<typeof vendorWithTrunk>>;
const vendorEmail = () => `${vendor.carrierName.toLowerCase()}@example.com`;

test.beforeAll(async () => {
  const token = await adminToken();
  table = await rateTableWith(token, 'sent_deck', [
    { code: '4420', code_name: 'UK London', rate: '0.0123' },
    { code: '4477', code_name: 'UK Mobile', rate: '0.0456' },
  ]);
  vendor = await vendorWithTrunk(token, { rateTableId: table.id, ip: randomIp() });
});

test('a rate table sent by e-mail link downloads without login and the log shows it downloaded', async ({
  page,
  browser,
}) => {
  test.slow();

  // The template, with its rule on the sender shown in the form.
  await enterAsAdmin(page, '/template/rate_email_template/new');
  await expect(page.getByRole('heading', { name: 'New Rate Email Template' })).toBeVisible();
  await page.getByTestId('field-name').fill(templateName);
  await page.getByTestId('form-save').click();
  await expect(page.getByText('From e-mail must be selected')).toBeVisible();
  await page.getByTestId('field-from_email').fill('rates@carrier.example.com');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/template/rate_email_template');
  await expect(page.getByRole('row').filter({ hasText: templateName })).toContainText('Download link');

  // Send the rate table from its list: the carrier using it is preselected.
  await enterAsAdmin(page, `/routing/rate_table?name=${table.name}`);
  await page.getByTestId(`send-${table.id}`).click();
  await expectPath(page, `/template/send_rate/rate_table/${table.name}/a_z/${table.id}`);
  await expect(page.getByRole('heading', { name: `Send rate table ${table.name}` })).toBeVisible();
  await expect(page.getByTestId('field-client_ids')).toContainText(vendor.carrierName);
  await pick(page, page.getByTestId('field-template_id'), templateName);
  const before = new Date();
  await page.getByTestId('send-rate').click();
  const status = page.getByTestId('send-status');
  await expect(status).toHaveAttribute('data-status', 'finished', { timeout: 20_000 });
  await expect(status).toContainText('Sent: 1 succeeded, 0 failed');

  // The e-mail, with the tags rendered and the link.
  const mail = await latestMailTo(vendorEmail(), { after: before });
  expect(mail.subject).toBe(`Rate deck ${table.name} effective ${new Date().toISOString().slice(0, 10)}`);
  expect(mail.text).toContain(`Dear ${vendor.carrierName},`);
  const link = linkIn(mail);
  expect(link).toMatch(/\/#\/download\/rate\/[A-Za-z0-9_-]{40,}$/);

  // Opened in a fresh browser without a session: the page offers the file and downloads it.
  const anonymous = await browser.newContext({ acceptDownloads: true, timezoneId: 'UTC' });
  try {
    const carrierPage = await anonymous.newPage();
    await carrierPage.goto(link);
    await expect(carrierPage.getByTestId('download-info')).toContainText(table.name);
    await expect(carrierPage.getByTestId('download-info')).toContainText(vendor.carrierName);
    await expect(carrierPage.getByTestId('frame-header')).toHaveCount(0);
    const downloading = carrierPage.waitForEvent('download');
    await carrierPage.getByTestId('download-rate-file').click();
    const file = await downloading;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^${table.name}_\\d{4}-\\d{2}-\\d{2}\\.csv$`));
    const csv = fs.readFileSync((await file.path())!, 'utf8');
    expect(csv).toContain('4420,UK London,,0.0123');
    expect(csv).toContain('4477,UK Mobile,,0.0456');

    // A link that is not (or no longer) valid says so.
    await carrierPage.goto(link.replace(/[A-Za-z0-9_-]{8}$/, 'AAAAAAAA'));
    await expect(carrierPage.getByTestId('download-error')).toHaveText(
      'This rate download link is not valid',
    );
  } finally {
    await anonymous.close();
  }

  // The delivery log shows it downloaded, and so does the rate table's send log.
  await enterAsAdmin(page, '/log/rate_delivery_log');
  const row = page.getByRole('row').filter({ hasText: vendorEmail() });
  await expect(row).toContainText('Downloaded');
  await expect(row).toContainText(table.name);
  await page.getByTestId('filter-status').click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    .getByText('Sent (failed)')
    .click();
  await expect(page.getByRole('row').filter({ hasText: vendorEmail() })).toHaveCount(0);

  await enterAsAdmin(page, `/routing/rate_table/send_rate_log?rate_table_id=${table.id}`);
  await expect(page.getByRole('heading', { name: `Send rate log of ${table.name}` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: vendorEmail() })).toContainText('Downloaded');
});
