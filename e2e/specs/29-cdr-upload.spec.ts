import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createCarrierUser, unique } from '../support/api';
import { engineSettled, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { adminToken, enterAsAdmin, expectPath } from '../support/ui';

/**
 * CDR upload on the CDR screen (issue 10 section 1): an admin uploads a CSV of switch CDRs on
 * Statistics > CDRs List, follows the job to its end and finds the calls; the same file again
 * stores and bills nothing; a file with a malformed row is refused naming row and field; the upload
 * log lists all three.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const FIELDS = [
  'call_id',
  'attempt',
  'is_final_attempt',
  'start_time',
  'answer_time',
  'end_time',
  'duration',
  'ingress_trunk_id',
  'egress_trunk_id',
  'source_ip',
  'ani',
  'dnis',
  'release_cause',
  'release_side',
  'pdd_ms',
] as const;
const start = new Date(Date.now() - 3_600_000);
const range = `start=${new Date(start.getTime() - 3_600_000).toISOString()}&end=${new Date(Date.now() + 60_000).toISOString()}`;
const prefix = unique('upl');
let good = '';
let bad = '';

function row(i: number, trunk: number, vendorTrunk: number, endBeforeStart = false): string {
  const s = new Date(start.getTime() + i * 1000);
  const answer = new Date(s.getTime() + 2000);
  const end = endBeforeStart ? new Date(s.getTime() - 60_000) : new Date(answer.getTime() + 60_000);
  const v: Record<(typeof FIELDS)[number], string | number> = {
    call_id: `${prefix}-${i}`,
    attempt: 1,
    is_final_attempt: 'true',
    start_time: s.toISOString(),
    answer_time: answer.toISOString(),
    end_time: end.toISOString(),
    duration: 60,
    ingress_trunk_id: trunk,
    egress_trunk_id: vendorTrunk,
    source_ip: '10.0.0.1',
    ani: '15550001111',
    dnis: '447700900123',
    release_cause: 200,
    release_side: 'O',
    pdd_ms: 800,
  };
  return FIELDS.map((f) => v[f]).join(',');
}

test.beforeAll(async () => {
  const token = await adminToken();
  const deck = { code: '44', code_name: 'UK', effective: '2010-01-01T00:00:00Z' };
  const clientTable = await rateTableWith(token, 'upl_client', [{ ...deck, rate: '0.0500' }]);
  const vendorTable = await rateTableWith(token, 'upl_vendor', [{ ...deck, rate: '0.0300' }]);
  const vendor = await vendorWithTrunk(token, { rateTableId: vendorTable.id, ip: randomIp() });
  const customer = await createCarrierUser(token, { name: unique('uplcust') });
  const trunk = (
    await call(api.trunks.trunk.create, {
      token,
      body: {
        name: unique('upl_in'),
        carrier_id: customer.clientId,
        direction: 'ingress',
        rate_table_id: clientTable.id,
        hosts: [{ host_type: 'ip', host: randomIp(), port: null, netmask: 32 }],
      },
    })
  ).object_id;
  await engineSettled(token);
  const header = FIELDS.join(',');
  good = [header, ...[1, 2, 3].map((i) => row(i, trunk, vendor.trunkId))].join('\n') + '\n';
  bad = [header, row(4, trunk, vendor.trunkId), row(5, trunk, vendor.trunkId, true)].join('\n') + '\n';
});

test('an admin uploads a CDR file, follows its job and finds the calls; the same file again bills nothing', async ({
  page,
}) => {
  await enterAsAdmin(page, `/statistics/cdrs_list?${range}`);
  await expect(page.getByRole('heading', { name: 'CDRs List' })).toBeVisible({ timeout: 30_000 });

  const send = async (name: string, text: string) => {
    await page.getByTestId('cdr-upload-open').click();
    const dialog = page.getByRole('dialog', { name: 'Upload CDR file' });
    await expect(dialog).toBeVisible();
    await dialog
      .getByTestId('cdr-upload-input')
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
    await dialog.getByTestId('cdr-upload-start').click();
    return dialog;
  };

  const first = await send('calls.csv', good);
  await expect(first.getByTestId('cdr-upload-state')).toHaveText('Finished', { timeout: 30_000 });
  await expect(first.getByTestId('cdr-upload-result')).toHaveText(
    '3 stored, 0 stored before (not billed again), 0 unpriced',
  );
  await first.getByTestId('cdr-upload-close').click();

  await page.getByTestId('filter-call-id').fill(`${prefix}-2`);
  await page.getByTestId('cdr-search').click();
  await expect(page.getByTestId('cdr-total')).toHaveText('1 CDRs');

  const again = await send('calls-again.csv', good);
  await expect(again.getByTestId('cdr-upload-state')).toHaveText('Finished', { timeout: 30_000 });
  await expect(again.getByTestId('cdr-upload-result')).toHaveText(
    '0 stored, 3 stored before (not billed again), 0 unpriced',
  );
  await again.getByTestId('cdr-upload-close').click();
});

test('a file with a malformed row is refused naming row and field; the upload log lists every upload', async ({
  page,
}) => {
  await enterAsAdmin(page, `/statistics/cdrs_list?${range}`);
  await page.getByTestId('cdr-upload-open').click();
  const dialog = page.getByRole('dialog', { name: 'Upload CDR file' });
  await dialog
    .getByTestId('cdr-upload-input')
    .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
  await dialog.getByTestId('cdr-upload-start').click();
  const refused = dialog.getByTestId('cdr-upload-refused');
  await expect(refused).toContainText('The file was not imported, nothing was stored: row 3, field end_time');
  await expect(refused).toContainText('end_time is before the start time');

  await dialog.getByTestId('cdr-upload-log-link').click();
  await expectPath(page, '/log/cdr_upload_log');
  const table = page.locator('.ant-table-tbody');
  await expect(table.locator('tr.ant-table-row').first()).toContainText('bad.csv');
  await expect(table.locator('tr.ant-table-row').first()).toContainText('Refused');
  await expect(table.locator('tr.ant-table-row').first()).toContainText('line 3, end_time');
  await expect(table).toContainText('calls-again.csv');
  await expect(table).toContainText('calls.csv');

  // Log > Import Log: every import in one list, this one failed, with a link to its own log
  await page.goto('/#/log/import_log');
  await expect(page.locator('h1')).toHaveText('Import Log');
  const row = page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: 'bad.csv' }).first();
  await expect(row).toContainText('CDRs');
  await expect(row).toContainText('Failed');
  await row.getByTestId('import-details').click();
  await expectPath(page, '/log/cdr_upload_log');
});
