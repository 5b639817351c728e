import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, createCarrierUser, unique, type PortalLogin } from '../support/api';
import { cdrOf, postCdrs } from '../support/cdrs';
import { engineSettled, pick, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { pastMonth } from '../support/dates';
import { adminToken, enterAsAdmin, flash, pngBuffer } from '../support/ui';

/**
 * Finance, browser proof of the screens issue 12 still missed: a vendor that carried two one-minute
 * calls to the UK on the 5th of the month before last (0.025 each, Tandem's figure 0.05) sends an invoice of 0.08; the
 * clerk records it with its daily line, sees the difference, attaches the vendor's PDF, disputes it
 * and resolves it at 0.06 (one balance adjustment of 0.01). An extra charge on a client is charged
 * at once, shows on its invoice and is cancelled; an invoice setting gets its logo from a file.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const MONTH = pastMonth();
const DAY = MONTH.day(5);
let token: string;
let client: PortalLogin & { clientId: number; carrierName: string };
let vendor: { carrierId: number; carrierName: string; trunkId: number };

test.beforeAll(async () => {
  token = await adminToken();
  const uk = { code: '44', code_name: 'UK' };
  const customerTable = await rateTableWith(token, 'fx_customer', [{ ...uk, rate: '0.0500' }]);
  const vendorTable = await rateTableWith(token, 'fx_vendor', [{ ...uk, rate: '0.0250' }]);
  vendor = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  client = await createCarrierUser(token, { name: unique('FxCo') });
  const ingress = (
    await call(api.trunks.trunk.create, {
      token,
      body: {
        name: unique('fx_in'),
        carrier_id: client.clientId,
        direction: 'ingress',
        rate_table_id: customerTable.id,
        hosts: [{ host_type: 'ip', host: randomIp(), port: null, netmask: 32 }],
      },
    })
  ).object_id;
  await engineSettled(token);
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('fx_key') } });
  const cdr = (n: number) =>
    cdrOf({
      callId: unique(`fx-call-${n}`),
      start: Date.parse(`${DAY}T11:0${n}:00Z`),
      answerAfterMs: 3000,
      duration: 60,
      ingressTrunk: ingress,
      egressTrunk: vendor.trunkId,
      sourceIp: '10.0.0.1',
    });
  expect((await postCdrs(key, [cdr(1), cdr(3)], 'fx-batch')).stored).toBe(2);
});

test('a vendor invoice is compared with Tandem’s figures, disputed and resolved once', async ({ page }) => {
  test.setTimeout(240_000);
  await enterAsAdmin(page, '/finance/vendor_invoice');
  await page.getByTestId('new-vendor-invoice').click();
  await pick(page, page.getByTestId('vi-vendor'), vendor.carrierName);
  await page.getByTestId('vi-number').fill('VEND-OCT-1');
  const date = page.getByTestId('vi-date');
  await date.fill(MONTH.nextMonthDay(2));
  await date.press('Enter');
  // antd puts the test id on the range picker's first input, not on its wrapper: read both inputs
  // from the wrapper that holds it.
  const period = page
    .locator('.ant-picker-range:has([data-testid="vi-period"]), .ant-picker-range[data-testid="vi-period"]')
    .locator('input');
  await period.first().fill(MONTH.first);
  await period.first().press('Enter');
  await period.last().fill(MONTH.last);
  await period.last().press('Enter');
  await page.getByTestId('vi-amount').fill('0.08');
  await page.getByTestId('vi-minutes').fill('2.5');
  // a line that is not a line is named before anything is sent
  await page.getByTestId('vi-lines').fill(`${DAY}, 0.08`);
  await page.getByTestId('vi-save').click();
  await expect(page.getByText('Line 1 is not "destination, minutes, amount"')).toBeVisible();
  await page.getByTestId('vi-lines').fill(`${DAY}, 2.5, 0.08`);
  await page.getByTestId('vi-save').click();

  await expect(page.getByTestId('vi-our-amount')).toHaveText('USD 0.05');
  await expect(page.getByTestId('vi-vendor-amount')).toHaveText('USD 0.08');
  await expect(page.getByTestId('vi-difference')).toHaveText('+USD 0.03');
  await expect(page.getByTestId('vi-minutes-difference')).toHaveText('0.50');
  await expect(page.getByTestId('vi-by-day')).toContainText(DAY);
  await expect(page.getByTestId('vendor-status')).toHaveText('Received');

  // the vendor's PDF
  await page.getByTestId('vi-upload-input').setInputFiles({
    name: 'vendor-oct.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
  });
  await expect(page.getByTestId('vi-pdf')).toBeVisible({ timeout: 30_000 });

  // dispute, then resolve at 0.06
  await page.getByTestId('dispute').click();
  await page.getByTestId('dispute-note').fill('Our CDRs show 2 minutes');
  await page.getByTestId('dispute-save').click();
  await expect(page.getByTestId('vendor-status')).toHaveText('Disputed');
  await page.getByTestId('resolve').click();
  await page.getByTestId('agreed-amount').fill('0.06');
  await page.getByTestId('resolve-save').click();
  await expect(page.getByTestId('vendor-status')).toHaveText('Resolved');
  await expect(page.getByTestId('vi-adjustment')).toHaveText('USD 0.01');

  const rows = await call(api.finance.listTransactions, {
    token,
    query: { client_id: vendor.carrierId, kind: 'adjustment' } as never,
  });
  expect(rows.items.map((r) => [r.ref.startsWith('vendor_invoice:'), r.amount])).toEqual([
    [true, '0.010000'],
  ]);

  await page.getByRole('link', { name: 'Back to the list' }).click();
  const row = page.getByTestId('vendor-invoice-VEND-OCT-1');
  await expect(row.getByTestId('difference')).toHaveText('+USD 0.03');
  await expect(row.getByTestId('vendor-status')).toHaveText('Resolved');
});

test('an extra charge is charged once, shows on the invoice, and can be cancelled', async ({ page }) => {
  test.setTimeout(240_000);
  await enterAsAdmin(page, '/finance/extra_charge');
  await pick(page, page.getByTestId('charge-carrier'), client.carrierName);
  await page.getByTestId('charge-name').fill('Port setup fee');
  await page.getByTestId('charge-amount').fill('2.50');
  const start = page.getByTestId('charge-start');
  await start.fill(MONTH.day(10));
  await start.press('Enter');
  await page.getByTestId('charge-save').click();
  await expect(flash(page)).toContainText('1 occurrence(s) charged now');
  const row = page.getByTestId('charge-Port setup fee');
  await expect(row.getByTestId('charge-total')).toHaveText('USD 2.50 (1)');
  await expect(row.getByTestId('charge-status')).toHaveText('Finished');

  const ledger = async () =>
    (
      await call(api.finance.listTransactions, {
        token,
        query: { client_id: client.clientId, kind: 'extra_charge' } as never,
      })
    ).items.map((r) => r.amount);
  expect(await ledger()).toEqual(['-2.500000']);

  // the month's invoice shows it
  const inv = await call(api.billing.createInvoice, {
    token,
    body: { client_id: client.clientId, date_from: MONTH.first, date_to: MONTH.last } as never,
  });
  const detail = await call(api.billing.getInvoice, { token, params: { id: inv.invoice_id } });
  expect(detail.lines.charges.map((c) => [c.date, c.name])).toEqual([[MONTH.day(10), 'Port setup fee']]);
  expect(detail).toMatchObject({ extra_charges: '2.50', amount: '2.60' });

  // cancel it: a reversing entry
  await row.locator('.ant-table-row-expand-icon').click();
  await page.getByTestId('occurrence-cancel').click();
  await page.getByTestId('confirm-ok').click();
  await expect(page.getByTestId('occurrence-status')).toHaveText('Canceled');
  await expect(row.getByTestId('charge-total')).toHaveText('USD 0.00 (1)');
  expect((await ledger()).sort()).toEqual(['-2.500000', '2.500000']);
});

test('an invoice setting takes its logo from a PNG file and draws it on the PDF', async ({ page }) => {
  test.setTimeout(180_000);
  const name = unique('Logo setting');
  await enterAsAdmin(page, '/configuration/invoice_setting/new');
  await page.getByTestId('field-name').fill(name);
  // a GIF is refused with the upload widget's words
  await page
    .getByTestId('field-logo')
    .setInputFiles({ name: 'logo.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await expect(page.getByTestId('field-logo-error')).toHaveText("You can't upload files of this type.");
  await page
    .getByTestId('field-logo')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: pngBuffer(24) });
  await expect(page.getByTestId('field-logo-preview')).toBeVisible();
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toBeVisible();

  const settings = await call(api.billing.invoiceSetting.list, { token, query: { name } as never });
  const setting = settings.items[0] as { invoice_setting_id: number; logo: string };
  expect(setting.logo).toMatch(/^data:image\/png;base64,/);
  await call(api.billing.assignSetting, {
    token,
    params: { id: setting.invoice_setting_id },
    body: { client_ids: [client.clientId] },
  });
  const before = pastMonth(3);
  const inv = await call(api.billing.createInvoice, {
    token,
    body: { client_id: client.clientId, date_from: before.first, date_to: before.last } as never,
  });
  const pdf = await fetch(new URL(`/api/finance/invoice/${inv.invoice_id}/pdf`, baseUrl()), {
    headers: { 'x-auth-token': token },
  });
  expect(Buffer.from(await pdf.arrayBuffer()).toString('latin1')).toContain('/Subtype /Image');
});
