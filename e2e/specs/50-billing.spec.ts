import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, createCarrierUser, unique, type PortalLogin } from '../support/api';
import { cdrOf, postCdrs } from '../support/cdrs';
import { engineSettled, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { pastMonth } from '../support/dates';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * Finance, browser proof (issue 12): a client with two answered minutes to the UK in the month before
 * last (0.05 each) gets its automatic monthly invoice for that month from Auto Invoice Management
 * (start from its first day, run now); the admin opens its PDF, pays it partly on its payment list, adds a
 * credit note, voids and reverses it; the client sees the invoice and its payment in the portal.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const MONTH = pastMonth();
const DAY = MONTH.day(5);
let token: string;
let client: PortalLogin & { clientId: number; carrierName: string };

test.beforeAll(async () => {
  token = await adminToken();
  const uk = { code: '44', code_name: 'UK' };
  const customerTable = await rateTableWith(token, 'bill_customer', [{ ...uk, rate: '0.0500' }]);
  const vendorTable = await rateTableWith(token, 'bill_vendor', [{ ...uk, rate: '0.0250' }]);
  const vendor = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  client = await createCarrierUser(token, { name: unique('BillCo') });
  const term = await call(api.configuration.paymentTerm.create, {
    token,
    body: { name: unique('Monthly 15'), invoicing_cycle: 'monthly', grace_days: 15 },
  });
  await call(api.carriers.carrier.update, {
    token,
    params: { id: client.clientId },
    body: { payment_term_id: term.object_id, billing_email: 'ap@billco.example.com' },
  });
  const ingress = (
    await call(api.trunks.trunk.create, {
      token,
      body: {
        name: unique('bill_in'),
        carrier_id: client.clientId,
        direction: 'ingress',
        rate_table_id: customerTable.id,
        hosts: [{ host_type: 'ip', host: randomIp(), port: null, netmask: 32 }],
      },
    })
  ).object_id;
  await engineSettled(token);
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('bill_key') } });
  const cdr = (n: number) =>
    cdrOf({
      callId: unique(`bill-call-${n}`),
      start: Date.parse(`${DAY}T10:0${n}:00Z`),
      answerAfterMs: 3000,
      duration: 60,
      ingressTrunk: ingress,
      egressTrunk: vendor.trunkId,
      sourceIp: '10.0.0.1',
    });
  expect((await postCdrs(key, [cdr(1), cdr(3)], 'bill-batch')).stored).toBe(2);
});

test('auto invoice for the month, PDF, partial payment, credit note, void and reverse', async ({ page }) => {
  test.setTimeout(240_000); // many steps on a loaded machine
  await enterAsAdmin(page, '/finance/auto_invoice_management?per_page=100');
  const row = page.getByTestId(`auto-${client.carrierName}`);
  await row.getByTestId('start').click();
  const first = page.locator('.ant-popover').getByPlaceholder(/date/i);
  await first.fill(MONTH.first);
  await first.press('Enter');
  await page.getByTestId('start-confirm').click();
  await expect(row.getByTestId('auto-state')).toHaveText(/Started/);
  await page.getByTestId('run-now').click();
  await expect(flash(page)).toContainText('Automatic invoicing started');

  // the job makes the month's invoice (and the months after, without traffic: skipped)
  await expect
    .poll(
      async () =>
        (await call(api.billing.listInvoices, { token, query: { client_id: client.clientId } as never }))
          .items.length,
      { timeout: 30_000 },
    )
    .toBe(1);
  const inv = (
    await call(api.billing.listInvoices, { token, query: { client_id: client.clientId } as never })
  ).items[0]!;
  expect(inv).toMatchObject({
    period_from: MONTH.first,
    period_to: MONTH.last,
    amount: '0.10',
    origin: 'auto',
  });

  await page.goto(`${baseUrl()}/#/finance/invoice?client_id=${client.clientId}`);
  const line = page.getByTestId(`invoice-${inv.invoice_number}`);
  await expect(line.getByTestId('state')).toHaveText('Unpaid');
  const popup = page.waitForEvent('popup');
  await line.getByTestId('pdf').click();
  expect((await popup).url()).toMatch(/^blob:/);
  const pdf = await fetch(new URL(`/api/finance/invoice/${inv.invoice_id}/pdf`, baseUrl()), {
    headers: { 'x-auth-token': token },
  });
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  expect(
    Buffer.from(await pdf.arrayBuffer())
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // pay part of it on its payment list
  await line.getByTestId('payments').click();
  await expect(page.getByTestId('invoice-total')).toHaveText('USD 0.10');
  await page.getByTestId('payment-amount').fill('0.04');
  await page.getByTestId('payment-save').click();
  await expect(page.getByTestId('invoice-paid')).toHaveText('USD 0.04');
  await expect(page.getByTestId('invoice-state')).toHaveText('Partially paid');

  // a credit note for 0.02
  await page.goto(`${baseUrl()}/#/finance/invoice/credit_note/${inv.invoice_id}`);
  await page.getByTestId('note-amount').fill('0.02');
  await page.getByTestId('note-text').fill('Two short calls');
  await page.getByTestId('note-save').click();
  await expect(page.getByTestId('invoice-due')).toHaveText('USD 0.04');
  await expect(page.getByTestId('notes')).toContainText('Two short calls');

  // void, then reverse
  await page.goto(`${baseUrl()}/#/finance/invoice?client_id=${client.clientId}`);
  await line.getByTestId('void').click();
  await page.getByTestId('confirm-ok').click();
  await expect(line.getByTestId('state')).toHaveText('Voided');
  await expect(page.getByTestId('confirm-ok')).toBeHidden();
  await line.getByTestId('reverse').click();
  await page.getByTestId('confirm-ok').click();
  await expect(line.getByTestId('state')).toHaveText('Partially paid');
  // the payment stays recorded (the void released its allocation)
  const pays = await call(api.billing.listPayments, {
    token,
    query: { client_id: client.clientId } as never,
  });
  expect(pays.items.map((p) => p.amount)).toEqual(['0.040000']);
});

test('the client sees its invoice and payment in the portal', async ({ page }) => {
  await enterAs(page, client.name, client.password, '/clients/billing/invoices');
  await expect(page.getByTestId('invoices')).toContainText(`${MONTH.first} – ${MONTH.last}`);
  await expect(page.getByTestId('invoices').locator('tbody tr.ant-table-row')).toHaveCount(1);
  await page.goto(`${baseUrl()}/#/clients/billing/payment`);
  await expect(page.getByTestId('payments')).toContainText('0.04');
  await page.goto(`${baseUrl()}/#/clients/billing/account_summary`);
  await expect(page.getByTestId('statement')).toBeVisible();
});
