import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, FIRST_ADMIN, unique } from '../support/api';
import { cdrOf, postCdrs } from '../support/cdrs';
import { engineSettled, pick, randomIp } from '../support/switch';
import { adminToken, enterAs } from '../support/ui';

/**
 * Issue 14, the rest of section 4 in the browser: a CSV file of numbers imported as a job with its
 * progress on DID Upload, the inbound DID calls in Origination > CDRs List and in the client's
 * portal (its own only), and the DID report by number.
 *
 * Prepared over the API: a billing rule, a DID vendor and a DID client with a portal user, a number
 * assigned to the client, and one answered inbound call to it through the CDR ingest.
 */
test.use({ timezoneId: 'UTC' });
test.describe.configure({ mode: 'serial' });

const vendorIp = randomIp();
const names = { vendor: unique('cdrvendor'), client: unique('cdrclient'), rule: unique('cdrrule') };
const login = { name: unique('didcdr'), passwd: 'Client#2026' };
const block = String(Math.floor(1000 + Math.random() * 8999));
const number = `33${block}00001`;
const callId = unique('didcall');

test.beforeAll(async () => {
  const token = await adminToken();
  const rule = await call(api.did.billingRule.create, {
    token,
    body: { name: names.rule, monthly_price: '2', per_minute: '0.03' },
  });
  const vendorId = (
    await call(api.did.createVendor, {
      token,
      body: { name: names.vendor, hosts: [vendorIp], billing_rule_id: rule.object_id },
    })
  ).object_id;
  const clientId = (
    await call(api.did.createClient, {
      token,
      body: {
        name: names.client,
        hosts: [randomIp()],
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
    body: { vendor_id: vendorId, method: 'list', numbers: number } as never,
  });
  const did = (await call(api.did.listDids, { token, query: { number } as never })).items[0]!;
  await call(api.did.assignDids, { token, body: { did_ids: [did.did_id], client_id: clientId } as never });
  const vendorTrunk = (await call(api.did.getVendor, { token, params: { id: vendorId } })).trunk_id!;
  const clientTrunk = (await call(api.did.getClient, { token, params: { id: clientId } })).trunk_id!;
  await engineSettled(token);
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('didcdr_proxy') } });
  const start = Math.floor(Date.now() / 1000) * 1000 - 120_000;
  const cdr = cdrOf({
    callId,
    start,
    duration: 90,
    ingressTrunk: vendorTrunk,
    egressTrunk: clientTrunk,
    sourceIp: vendorIp,
    dnis: number,
    egressDnis: number,
  });
  expect((await postCdrs(key, [cdr], 'didcdr')).stored).toBe(1);
});

/** The admin on a page; a longer wait for the frame (each page's chunks load cold on a busy machine). */
const asAdmin = (page: Page, path: string) =>
  enterAs(page, FIRST_ADMIN.name, FIRST_ADMIN.passwd, path, { timeout: 60_000 });

const rowOf = (page: Page, text: string) =>
  page.getByTestId('cdr-table').locator('tbody tr').filter({ hasText: text });

test('a CSV file of numbers is imported as a job, its progress shown until done', async ({ page }) => {
  await asAdmin(page, '/origination/did_repository_upload');
  await pick(page, page.getByTestId('upload-vendor'), names.vendor);
  await page.getByTestId('method-file').click();
  const lines = Array.from({ length: 30 }, (_, i) => `33${block}1${String(i).padStart(4, '0')}`).join('\n');
  await page
    .locator('input[type=file]')
    .setInputFiles({ name: 'numbers.csv', mimeType: 'text/csv', buffer: Buffer.from(lines) });
  await page.getByTestId('upload-submit').click();
  await expect(page.getByTestId('import-status')).toHaveText(
    'Imported successfully: 30 added, 0 overwritten, 0 ignored',
    { timeout: 30_000 },
  );
  await asAdmin(page, '/log/DID_import_log');
  await expect(page.locator('tr', { hasText: 'numbers.csv' }).first()).toContainText('finished');
});

test('Origination > CDRs List shows the inbound DID call, rated for the client and the vendor', async ({
  page,
}) => {
  await asAdmin(page, '/origination/cdrs_list');
  await expect(page.locator('h1')).toHaveText('DID CDRs');
  const row = rowOf(page, number);
  await expect(row).toContainText(names.client);
  await expect(row).toContainText(names.vendor);
  await expect(row).toContainText('0.045'); // 90 s at 0.03 a minute, the client's charge
});

test("the client's portal lists its DID calls under Origination > DID CDR", async ({ page }) => {
  await enterAs(page, login.name, login.passwd, '/clients/origination/cdr', { timeout: 60_000 });
  await expect(page.locator('h1')).toHaveText('DID CDRs');
  await expect(rowOf(page, number)).toBeVisible();
  // and its DID report, by day
  await page.goto(page.url().replace(/\/clients\/origination\/cdr.*$/, '/clients/origination/report'));
  await expect(page.getByTestId('report-totals').locator('td').nth(1)).toHaveText('1');
});

test('the DID report shows the number with its call, revenue and cost', async ({ page }) => {
  await asAdmin(page, '/origination/did_report');
  await expect(page.locator('h1')).toHaveText('DID Report');
  const row = page.getByTestId('report-table').locator('tbody tr').filter({ hasText: number });
  await expect(row.locator('td').nth(1)).toHaveText('1');
});
