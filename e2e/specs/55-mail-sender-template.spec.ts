import { api } from '@tandem/contract';
import { expect, test } from '@playwright/test';
import { call, unique } from '../support/api';
import { latestMailTo } from '../support/mail';
import { adminToken, enterAsAdmin, flash } from '../support/ui';

/**
 * Configuration > Mail Sender and Mail Template, Log > Email Log: an operator adds an SMTP sender,
 * tests it, sends a test mail (captured by the test SMTP server), edits a template with its tags
 * and preview, and cannot delete a sender a template uses.
 */
test('mail sender, test send, template editor with preview, e-mail log', async ({ page }) => {
  test.slow();
  const token = await adminToken();
  const name = unique('Relay');
  const from = `${name.toLowerCase()}@e2e.example.com`;

  await enterAsAdmin(page, '/configuration/email_sender/new');
  await page.getByTestId('field-name').fill(name);
  await page.getByTestId('field-server').fill('127.0.0.1');
  await page.getByTestId('field-port').fill(process.env.TANDEM_E2E_SMTP_PORT ?? '');
  await page.getByTestId('field-security').click();
  await page.getByTitle('None').click();
  await page.getByTestId('field-address').fill(from);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toContainText('success');

  const sender = (await call(api.mail.mailSender.list, { token, query: { name } })).items[0]!;
  await expect(page.getByTestId(`sender-status-${sender.id}`)).toHaveText('Disconnected');
  await page.getByTestId(`sender-test-${sender.id}`).click();
  await expect(page.getByTestId(`sender-status-${sender.id}`)).toHaveText('Connected');

  const to = `${unique('ops')}@e2e.example.com`;
  const after = new Date();
  await page.getByTestId(`sender-send-${sender.id}`).click();
  await page.getByTestId('test-send-to').fill(to);
  await page.getByTestId('test-send-ok').click();
  await expect(flash(page)).toContainText(`Test mail sent to ${to}`);
  const mail = await latestMailTo(to, { after });
  expect(mail.from).toBe(from);
  expect(mail.subject).toBe(`Test mail from ${name}`);

  // The German daily balance template: tags, preview, an unknown tag refused, saved with the sender.
  const tpl = (
    await call(api.mail.mailTemplate.list, { token, query: { event: 'daily_balance', language: 'de' } })
  ).items[0]!;
  await page.goto(`/#/configuration/mail_template/edit/${tpl.id}`);
  await page.getByTestId('field-subject').fill('Saldo {carrier_name}: {balance} {currency}');
  await expect(page.getByTestId('preview-subject')).toHaveText('Saldo Acme Telecom: 18.40 USD');
  await page.getByTestId('field-content').fill('Guten Tag, ');
  await page.getByTestId('tag-available').click();
  await expect(page.getByTestId('field-content')).toHaveValue('Guten Tag, {available}');
  await expect(page.getByTestId('preview-content')).toHaveText('Guten Tag, 18.40');
  await page.getByTestId('field-content').fill('Guten Tag, {link}');
  await page.getByTestId('field-sender_id').click();
  await page.getByTitle(`${name} <${from}>`).click();
  await page.getByTestId('form-save').click();
  // The form shows the field's error under it (and the frame's toast repeats it).
  await expect(page.getByTestId('form-mail-template').getByText('Unknown tag {link}')).toBeVisible();
  await page.getByTestId('field-content').fill('Guten Tag, Ihr Saldo ist {balance} {currency}.');
  await page.getByTestId('form-save').click();
  await expect(page).toHaveURL(/#\/configuration\/mail_template$/);
  const saved = await call(api.mail.mailTemplate.get, { token, params: { id: tpl.id } });
  expect(saved).toMatchObject({
    sender_id: sender.id,
    subject: 'Saldo {carrier_name}: {balance} {currency}',
  });

  // In use: the sender cannot be deleted.
  const del = await fetch(`${process.env.TANDEM_E2E_BASE_URL}/api/config/email_sender/${sender.id}`, {
    method: 'DELETE',
    headers: { 'x-auth-token': token },
  });
  expect(((await del.json()) as { error: { message: string } }).error.message).toBe(
    'Email sender is already in use for a mail template',
  );

  // The e-mail log shows the test mail as sent.
  await page.goto(`/#/log/email_log?to=${encodeURIComponent(to)}`);
  const row = page.getByRole('row').filter({ hasText: to });
  await expect(row).toContainText(`Test mail from ${name}`);
  await expect(row).toContainText('Sent');
});
