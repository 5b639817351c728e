import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { api } from '@tandem/contract';
import { call, createCarrierUser, unique, type PortalLogin } from '../support/api';
import { engineSettled, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { cdrOf, postCdrs } from '../support/cdrs';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * CDR search, browser proof (issue 10 section 4): the switch sends CDRs of two customers; an admin
 * finds one call on Statistics > CDRs List, adds a column from the catalogue and opens the call with
 * both attempts and both legs; a client on its portal's CDR page sees only its own calls, without the
 * vendor's fields.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

let mine: PortalLogin & { clientId: number; carrierName: string };
let vendorName: string;
let secondVendorName: string;
const failover = unique('failover');
const single = unique('single');
const theirs = unique('theirs');
const start = new Date(Date.now() - 3_600_000);
const range = `start=${new Date(start.getTime() - 3_600_000).toISOString()}&end=${new Date(Date.now() + 60_000).toISOString()}`;

function cdr(
  callId: string,
  trunk: number,
  vendorTrunk: number,
  attempt: number,
  answered: boolean,
  final = true,
) {
  return cdrOf({
    callId,
    attempt,
    final,
    start: start.getTime() + attempt * 5000,
    duration: answered ? 60 : 0,
    failAfterMs: 3000,
    ingressTrunk: trunk,
    egressTrunk: vendorTrunk,
    sourceIp: '10.0.0.1',
    egressDnis: '447700900123',
    releaseCause: answered ? 200 : 503,
  });
}

test.beforeAll(async () => {
  const token = await adminToken();
  const row = { code: '44', code_name: 'UK', effective: '2010-01-01T00:00:00Z' };
  const clientTable = await rateTableWith(token, 'cdr_client', [{ ...row, rate: '0.0500' }]);
  const vendorTable = await rateTableWith(token, 'cdr_vendor', [{ ...row, rate: '0.0300' }]);
  const vendorA = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  const vendorB = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  vendorName = vendorB.carrierName;
  secondVendorName = vendorA.carrierName;
  mine = await createCarrierUser(token, { name: unique('cdrcust') });
  const other = await createCarrierUser(token, { name: unique('cdrother') });
  const trunkOf = async (carrierId: number) =>
    (
      await call(api.trunks.trunk.create, {
        token,
        body: {
          name: unique('cdr_in'),
          carrier_id: carrierId,
          direction: 'ingress',
          rate_table_id: clientTable.id,
          hosts: [{ host_type: 'ip', host: randomIp(), port: null, netmask: 32 }],
        },
      })
    ).object_id;
  const myTrunk = await trunkOf(mine.clientId);
  const otherTrunk = await trunkOf(other.clientId);
  await engineSettled(token);
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('proxy') } });
  const stored = await postCdrs(key, [
    cdr(failover, myTrunk, vendorA.trunkId, 1, false, false),
    cdr(failover, myTrunk, vendorB.trunkId, 2, true),
    cdr(single, myTrunk, vendorB.trunkId, 1, true),
    cdr(theirs, otherTrunk, vendorB.trunkId, 1, true),
  ]);
  expect(stored.stored).toBe(4);
});

test('an admin finds a call, adds a column and opens the call with both attempts', async ({ page }) => {
  await enterAsAdmin(page, `/statistics/cdrs_list?${range}`);
  // the page's chunk may take a while on a loaded machine
  await expect(page.getByRole('heading', { name: 'CDRs List' })).toBeVisible({ timeout: 30_000 });
  const table = page.getByTestId('cdr-table');
  await expect(table.getByText(theirs)).toHaveCount(0); // Call ID is not a default column
  await page.getByTestId('filter-call-id').fill(failover);
  await page.getByTestId('cdr-search').click();
  await expect(page.getByTestId('cdr-total')).toHaveText('2 CDRs');
  await expect(table.locator('tbody tr.ant-table-row')).toHaveCount(2);
  await expect(table).toContainText(vendorName);
  await expect(table).toContainText(secondVendorName);

  // a column from the catalogue
  await page.getByTestId('cdr-columns').click();
  await page.getByTestId('column-call_id').check();
  await page.getByTestId('column-egress_rate').check();
  await page.getByTestId('columns-save').click();
  await expect(table.getByRole('columnheader', { name: 'Egress Rate' })).toBeVisible();
  await expect(table.getByTestId(`call-link-${failover}`)).toHaveCount(2);

  // the call, every attempt with both legs
  await table.getByTestId(`call-link-${failover}`).first().click();
  const drawer = page.getByTestId('call-drawer');
  await expect(drawer).toContainText(`Call ${failover}`);
  await expect(drawer.getByTestId('attempt-1')).toContainText('Attempt 1');
  await expect(drawer.getByTestId('attempt-1-egress_client_name')).toHaveText(secondVendorName);
  await expect(drawer.getByTestId('attempt-1-release_cause')).toHaveText('503');
  await expect(drawer.getByTestId('attempt-2-egress_client_name')).toHaveText(vendorName);
  await expect(drawer.getByTestId('attempt-2-ingress_client_cost')).toHaveText('0.050000');
  await expect(drawer.getByTestId('attempt-2-egress_cost')).toHaveText('0.030000');
  await expect(drawer.getByTestId('attempt-2-profit')).toHaveText('0.020000');
  await expect(drawer.getByText('Customer leg').first()).toBeVisible();
  await expect(drawer.getByText('Vendor leg').first()).toBeVisible();
});

test('an admin exports the search as XLSX in the background and downloads it from the export log', async ({
  page,
}) => {
  await enterAsAdmin(page, `/statistics/cdrs_list?${range}&call_id=${failover}`);
  await expect(page.getByTestId('cdr-total')).toHaveText('2 CDRs', { timeout: 30_000 });
  await page.getByTestId('export-background-xlsx').click();
  await expect(flash(page)).toHaveText('Export started: follow it in the export log');
  const mineOnly = await call(api.log.listExportLog, {
    token: await adminToken(),
    query: { mine: 'true', per_page: 1 },
  });
  const exp = mineOnly.items[0]!;
  expect(exp.file_name).toMatch(/^cdrs-.*\.xlsx$/);
  const row = page.getByTestId('list-export-log').locator(`tr[data-row-key="${exp.id}"]`);
  await expect(row.getByTestId('job-status')).toHaveText('Finished', { timeout: 15_000 });
  const downloading = page.waitForEvent('download');
  await row.getByTestId(`download-${exp.id}`).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toBe(exp.file_name);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile((await file.path())!);
  const sheet = book.worksheets[0]!;
  // the default columns, headed as on the page; the failover's two attempts, one per vendor
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  expect(header).toEqual(expect.arrayContaining(['Start Time', 'Call Duration', 'Egress Carrier']));
  expect(sheet.rowCount).toBe(3);
  const vendorCol = header.indexOf('Egress Carrier') + 1;
  expect([2, 3].map((r) => sheet.getRow(r).getCell(vendorCol).value).sort()).toEqual(
    [vendorName, secondVendorName].sort(),
  );
  expect(typeof sheet.getRow(2).getCell(header.indexOf('Call Duration') + 1).value).toBe('number');
});

test('an admin chooses the CDR fields the client portal shows', async ({ page }) => {
  await enterAsAdmin(page, '/configuration/carrier_portal_cdr_fields');
  await expect(page.getByRole('heading', { name: 'Carrier Portal CDR Fields' })).toBeVisible({
    timeout: 30_000,
  });
  // a required field cannot be hidden; the vendor's cost can never be shown to a client
  await expect(page.getByTestId('client-ingress_client_cost')).toBeDisabled();
  await expect(page.getByTestId('client-egress_cost')).toHaveCount(0);
  await page.getByTestId('client-ingress_rate').uncheck();
  await page.getByTestId('client-orig_country').check();
  await page.getByTestId('fields-save').click();
  await expect(flash(page)).toContainText('Saved');
  await page.reload();
  await expect(page.getByTestId('client-orig_country')).toBeChecked({ timeout: 30_000 });
  await expect(page.getByTestId('client-ingress_rate')).not.toBeChecked();
});

test('a client sees only its own calls and none of the vendor fields', async ({ page }) => {
  await enterAs(page, mine.name, mine.password, `/clients/termination/cdr_termination?${range}`);
  const table = page.getByTestId('cdr-table');
  await expect(page.getByTestId('cdr-total')).toHaveText('3 CDRs', { timeout: 30_000 });
  await expect(table.getByTestId(`call-link-${single}`)).toBeVisible();
  await expect(table.getByTestId(`call-link-${failover}`)).toHaveCount(2);
  await expect(table.getByText(theirs)).toHaveCount(0);
  await expect(table).not.toContainText(vendorName);
  await expect(table.getByRole('columnheader', { name: 'Ingress Client Cost' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Egress Cost' })).toHaveCount(0);
  // as the admin chose: the country shown, the rate not
  await expect(table.getByRole('columnheader', { name: 'Orig Country' })).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Ingress Rate' })).toHaveCount(0);

  // the column chooser offers only what the portal settings allow
  await page.getByTestId('cdr-columns').click();
  await expect(page.getByTestId('column-ani')).toBeVisible();
  await expect(page.getByTestId('column-egress_cost')).toHaveCount(0);
  await expect(page.getByTestId('column-profit')).toHaveCount(0);
  await page.keyboard.press('Escape');

  // the call shows only the customer's leg
  await table.getByTestId(`call-link-${failover}`).first().click();
  const drawer = page.getByTestId('call-drawer');
  await expect(drawer.getByTestId('attempt-2-ingress_client_cost')).toHaveText('0.050000');
  await expect(drawer.getByText('Vendor leg')).toHaveCount(0);
  await expect(drawer).not.toContainText(vendorName);
});
