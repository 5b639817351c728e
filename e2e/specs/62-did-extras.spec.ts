import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, FIRST_ADMIN, unique } from '../support/api';
import { cdrOf, postCdrs } from '../support/cdrs';
import { engineSettled, pick, randomIp } from '../support/switch';
import { adminToken, enterAs, flash } from '../support/ui';

/**
 * Issue 14, the rest of origination in the browser: the Origination dashboard with a DID call and
 * the client's recurring charges, a port-in request made by a client in its portal and completed by
 * the operator on Port Requests (the client reading each status), and a DID invoice made on
 * Origination > DID Invoice > New with the month's DID charges.
 *
 * Prepared over the API: a billing rule, a DID vendor and a DID client with a portal user, two
 * numbers assigned to the client (setup fees and the month charged), one answered call to one.
 */
test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

const vendorIp = randomIp();
const clientIp = randomIp();
const names = { vendor: unique('xvendor'), client: unique('xclient'), rule: unique('xrule') };
const login = { name: unique('xportal'), passwd: 'Client#2026' };
const block = String(Math.floor(1000 + Math.random() * 8999));
const numbers = [`34${block}00001`, `34${block}00002`] as const;
const ported = [`35${block}00001`, `35${block}00002`] as const;
const today = new Date().toISOString().slice(0, 10);
const later = new Date(Date.now() + 10 * 86_400_000).toISOString().slice(0, 10);
let token: string;
let clientId: number;

test.beforeAll(async () => {
  token = await adminToken();
  const rule = await call(api.did.billingRule.create, {
    token,
    body: { name: names.rule, monthly_price: '3', per_minute: '0.03', setup_fee: '1.5' },
  });
  const vendorId = (
    await call(api.did.createVendor, {
      token,
      body: { name: names.vendor, hosts: [vendorIp], billing_rule_id: rule.object_id },
    })
  ).object_id;
  clientId = (
    await call(api.did.createClient, {
      token,
      body: {
        name: names.client,
        hosts: [clientIp],
        billing_rule_id: rule.object_id,
        mode: 'postpaid',
        credit_limit: '100',
        username: login.name,
        password: login.passwd,
      },
    })
  ).object_id;
  await call(api.did.importDids, {
    token,
    body: { vendor_id: vendorId, method: 'list', numbers: numbers.join('\n') } as never,
  });
  const dids = (await call(api.did.listDids, { token, query: { vendor_id: vendorId } as never })).items;
  await call(api.did.assignDids, {
    token,
    body: { did_ids: dids.map((d) => d.did_id), client_id: clientId } as never,
  });
  const vendorTrunk = (await call(api.did.getVendor, { token, params: { id: vendorId } })).trunk_id!;
  const clientTrunk = (await call(api.did.getClient, { token, params: { id: clientId } })).trunk_id!;
  await engineSettled(token);
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('xdid_proxy') } });
  const cdr = cdrOf({
    callId: unique('xdidcall'),
    start: Math.floor(Date.now() / 1000) * 1000 - 300_000,
    duration: 120,
    ingressTrunk: vendorTrunk,
    egressTrunk: clientTrunk,
    sourceIp: vendorIp,
    dnis: numbers[0],
    egressDnis: numbers[0],
  });
  expect((await postCdrs(key, [cdr], 'xdid')).stored).toBe(1);
});

/** The admin on a page; a longer wait for the frame (each page's chunks load cold on a busy machine). */
const asAdmin = (page: Page, path: string) =>
  enterAs(page, FIRST_ADMIN.name, FIRST_ADMIN.passwd, path, { timeout: 60_000 });
const asClient = (page: Page, path: string) =>
  enterAs(page, login.name, login.passwd, path, { timeout: 60_000 });

/** Types a date into an antd date picker (the input of the element with the test id) and confirms it. */
async function typeDate(page: Page, testId: string, value: string, index = 0, confirm = 'Enter') {
  const input = page.locator(`[data-testid="${testId}"] input, input[data-testid="${testId}"]`).nth(index);
  await input.click();
  await input.fill(value);
  await input.press(confirm);
}

test('the origination dashboard shows the numbers, the DID call and the charges', async ({ page }) => {
  await asAdmin(page, '/origination/dashboard?range=last_24h&top=100');
  await expect(page.getByRole('heading', { name: 'Origination Dashboard' })).toBeVisible();
  for (const card of ['numbers-total', 'numbers-assigned', 'numbers-unassigned', 'numbers-suspended'])
    await expect(page.getByTestId(`did-dash-${card}`)).toBeVisible();
  await expect(page.getByTestId('did-top-clients')).toContainText(names.client);
  await expect(page.getByTestId('did-top-vendors')).toContainText(names.vendor);
  // the client's setup fees and month are recurring revenue of the range
  await expect(page.getByTestId('did-dash-charges-revenue')).toBeVisible();
  const d = await call(api.didExtras.getDashboard, {
    token,
    query: { range: 'last_24h', top: 100 } as never,
  });
  expect(Number(d.money.charges_revenue)).toBeGreaterThan(0);
  expect(d.numbers.assigned).toBeGreaterThanOrEqual(2);
  await expect(page.getByTestId('did-dash-chart-calls')).not.toHaveAttribute('data-points', '0');
  await expect(page.getByTestId('did-dash-chart-money')).toBeVisible();
  // the same page in German
  await page.evaluate(() => localStorage.setItem('languages', 'de'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Originierungs-Übersicht' })).toBeVisible({
    timeout: 30_000,
  });
});

test('a client asks to port numbers in and the operator completes it', async ({ browser, page }) => {
  test.setTimeout(180_000);
  await asClient(page, '/clients/origination/port_did');
  await page.getByTestId('port-numbers-input').fill(`${ported[0]}\nxyz`);
  await page.getByTestId('port-provider').fill('OldTel');
  await typeDate(page, 'port-date', later);
  await page.getByTestId('port-send').click();
  await expect(page.getByText('DID is not valid: line 2 (xyz)').first()).toBeVisible();
  await page.getByTestId('port-numbers-input').fill(ported.join('\n'));
  await page.getByTestId('port-send').click();
  await expect(flash(page)).toContainText('Port-in request sent');
  const mine = page.getByTestId('port-requests');
  await expect(mine).toContainText(ported[0]);
  await expect(mine.getByTestId('port-status').first()).toHaveText('Requested');
  const { items } = await call(api.didExtras.listPortRequests, {
    token,
    query: { client_id: clientId } as never,
  });
  expect(items).toHaveLength(1);
  const id = items[0]!.id;

  // the operator moves it: in progress, then completed
  const admin = await browser.newPage();
  await asAdmin(admin, '/origination/port_requests?status=requested');
  const row = admin.getByTestId(`port-${id}`);
  await expect(row).toContainText(names.client);
  const move = async (status: string, note: string) => {
    await row.getByTestId('port-move').click();
    await pick(admin, admin.getByTestId('port-move-status'), status);
    await admin.getByTestId('port-move-note').fill(note);
    await admin.getByTestId('port-move-save').click();
    await expect(flash(admin)).toContainText('Status changed');
  };
  await admin.goto(admin.url().replace('?status=requested', ''));
  await move('In progress', 'Sent to OldTel');
  await expect(row.getByTestId('port-status')).toHaveText('In progress');
  await move('Completed', 'Ported on the date asked');
  await expect(row.getByTestId('port-status')).toHaveText('Completed');
  await expect(row).toContainText('This request is final');
  await admin.close();

  // the client reads the status, the operator's note and the history
  await page.reload();
  const line = page.getByTestId(`port-${id}`);
  await expect(line.getByTestId('port-status')).toHaveText('Completed', { timeout: 30_000 });
  await expect(line.getByTestId('operator-note')).toHaveText('Ported on the date asked');
  await line.getByTestId('port-history-open').click();
  const history = page.getByTestId('port-history');
  await expect(history).toContainText('Completed');
  await expect(history).toContainText('In progress');
  await expect(history).toContainText('Requested');
});

test("a DID invoice is made for the client's period with its DID charges", async ({ page }) => {
  await asAdmin(page, '/origination/did_invoice/new');
  await expect(page.getByTestId('did-invoice-hint')).toBeVisible();
  await pick(page, page.getByTestId('invoice-carrier'), names.client);
  await typeDate(page, 'invoice-period', today, 0);
  // the last one with Tab: Enter would also submit the form
  await typeDate(page, 'invoice-period', today, 1, 'Tab');
  await page.getByTestId('invoice-create').click();
  await expect(flash(page)).toContainText('INV');
  await expect(page).toHaveURL(/#\/origination\/did_invoice$/);
  const list = await call(api.didExtras.listInvoices, { token, query: { client_id: clientId } as never });
  expect(list.total).toBe(1);
  const inv = list.items[0]!;
  const row = page.getByTestId(`invoice-${inv.invoice_number}`);
  await expect(row).toContainText(names.client);
  // the two setup fees, the month's share and the call are on it
  const detail = await call(api.billing.getInvoice, { token, params: { id: inv.invoice_id } });
  expect(detail.lines.recurring.map((l) => l.key)).toEqual(
    expect.arrayContaining(['DID setup fees', 'DID monthly fees']),
  );
  expect(Number(detail.amount)).toBeGreaterThan(3);
  const popup = page.waitForEvent('popup');
  await row.getByTestId('pdf').click();
  expect((await popup).url()).toMatch(/^blob:/);
});
