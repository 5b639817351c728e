import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, unique } from '../support/api';
import { pick, randomIp, rateTableWith, vendorWithTrunk } from '../support/switch';
import { adminToken, enterAsAdmin, expectPath, flash } from '../support/ui';

/**
 * Tools > Rate Generation, browser proof: a template made over the screens (two vendors' egress
 * trunks, a 10 % margin), generated to Finished with the rates shown (cost, vendor, margin), then
 * applied to a rate table with the end date of its existing codes, and the table's rates seen;
 * the run's analysis against another rate table (opened from the history): summary, a filter, CSV;
 * and a US jurisdictional run compared column by column.
 */

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC' });

const template = unique('rategen');
let vendorA: Awaited<ReturnType<typeof vendorWithTrunk>>;
let vendorB: Awaited<ReturnType<typeof vendorWithTrunk>>;
let sell: { id: number; name: string };
let compare: { id: number; name: string };

test.beforeAll(async () => {
  const token = await adminToken();
  const a = await rateTableWith(token, 'gen_vendor_a', [
    { code: '44', code_name: 'United Kingdom', rate: '0.0100' },
    { code: '33', code_name: 'France', rate: '0.0200' },
  ]);
  const b = await rateTableWith(token, 'gen_vendor_b', [
    { code: '44', code_name: 'United Kingdom', rate: '0.0120' },
    { code: '49', code_name: 'Germany', rate: '0.0400' },
  ]);
  vendorA = await vendorWithTrunk(token, { rateTableId: a.id, ip: randomIp() });
  vendorB = await vendorWithTrunk(token, { rateTableId: b.id, ip: randomIp() });
  sell = await rateTableWith(token, 'gen_sell', [{ code: '86', code_name: 'China', rate: '0.3000' }]);
  compare = await rateTableWith(token, 'gen_compare', [
    { code: '44', code_name: 'United Kingdom', rate: '0.0100' },
    { code: '33', code_name: 'France', rate: '0.0300' },
    { code: '4', code_name: 'Zone 4', rate: '0.0700' },
  ]);
});

test('create a template, generate, see Finished and the rates, apply to a rate table and see its rates', async ({
  page,
}) => {
  await enterAsAdmin(page, '/tools/rate_generation');
  await page.getByTestId('new-button').click();
  await expectPath(page, '/tools/rate_generation/new');
  await page.getByTestId('field-name').fill(template);
  await pick(page, page.getByTestId('field-egress_trunks'), vendorA.trunkName);
  await pick(page, page.getByTestId('field-egress_trunks'), vendorB.trunkName);
  await page.keyboard.press('Escape');
  await page.getByTestId('field-interval').fill('6');
  await page.getByTestId('field-min_time').fill('30');
  await page.getByTestId('add-range').click();
  await page.getByTestId('range-0-from').fill('0');
  await page.getByTestId('range-0-to').fill('0.02');
  await page.getByTestId('range-0-markup').fill('10');
  await page.getByTestId('add-range').click();
  await page.getByTestId('range-1-from').fill('0.01');
  await page.getByTestId('range-1-markup').fill('1');
  await page.getByTestId('form-save').click();
  // The overlap is refused on the form with the server's own words.
  await expect(page.getByText('Rate ranges must not overlap: [0, 0.02) and [0.01, ∞)')).toBeVisible();
  await page.getByTestId('range-1-from').fill('0.02');
  await page.getByTestId('range-1-type').click();
  await page
    .locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')
    .getByText('Fixed value')
    .click();
  await page.getByTestId('range-1-markup').fill('0.005');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toContainText(/created/i);
  await expectPath(page, '/tools/rate_generation');

  const row = page.getByTestId('list-rate-generation-templates').locator('tr', { hasText: template });
  await expect(row).toContainText(`${vendorA.trunkName}, ${vendorB.trunkName}`);
  await row.locator('[data-testid^="generate-"]').click();
  await expect(flash(page)).toContainText(/Rate generation #\d+ started/);
  await expect(page.getByTestId('list-rate-generation-history')).toContainText(template);
  const status = page.locator('[data-testid^="history-status-"]').first();
  await expect(status).toHaveText('Finished', { timeout: 20_000 });
  await page.locator('[data-testid^="history-view-"]').first().click();

  await expect(page.getByTestId('generation-status')).toHaveText('Finished');
  // 44: A 0.0100 (lowest) + 10 %; 33: A 0.0200 is in [0.02, ∞): + 0.005; 49: B 0.0400 + 0.005.
  await expect(page.getByTestId('generated-44')).toContainText('0.0110');
  await expect(page.getByTestId('generated-44')).toContainText(vendorA.trunkName);
  await expect(page.getByTestId('generated-44')).toContainText('+10%');
  await expect(page.getByTestId('generated-33')).toContainText('0.0250');
  await expect(page.getByTestId('generated-49')).toContainText('0.0450');
  await expect(page.getByTestId('generated-49')).toContainText(vendorB.trunkName);
  await expect(page.getByTestId('list-total')).toContainText('3');

  await page.getByTestId('apply-generated').click();
  await pick(page, page.getByTestId('field-rate_table_id'), sell.name);
  await page.getByTestId('field-effective_date').fill('2030-01-01');
  await page.getByTestId('field-end_date_of_existing_codes').fill('2030-02-01');
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toContainText('Applied: 3 new, 0 overwritten, 1 ended');
  await expect(page.getByTestId('result-title')).toContainText(sell.name);
  await expect(page.getByTestId('result-44-future')).toContainText('0.0110');
  await expect(page.getByTestId('result-44-future')).toContainText('2030-01-01');
  await expect(page.getByTestId('result-86-current')).toContainText('2030-02-01');

  await page.goto(page.url().replace(/\?.*$/, ''));
  await expectPath(page, '/tools/rate_generation');
  await page.goto(page.url().replace(/#.*$/, '#/tools/rate_generation/history'));
  await expect(page.locator('[data-testid^="history-applied-"]').first()).toHaveText('Yes');

  // "Apply to rate table: what?" opens the history at its finished runs.
  await page.goto(page.url().replace(/#.*$/, '#/tools/rate_generation/apply_to_rate_table/what'));
  await expectPath(page, '/tools/rate_generation/history');
  await expect(page).toHaveURL(/status=Finished/);
  await expect(page.locator('[data-testid^="history-status-"]').first()).toHaveText('Finished');
});

test('the history opens the analysis of the run against a rate table: summary, change filter, CSV', async ({
  page,
}) => {
  await enterAsAdmin(page, '/tools/rate_generation/history');
  const row = page.getByTestId('list-rate-generation-history').locator('tr', { hasText: template });
  await row.locator('[data-testid^="history-analyse-"]').click();
  // The run was applied to the sell table: the link compares with it; here another table is chosen.
  await expectPath(page, '/tools/rate_generation/history/analysis');
  await expect(page).toHaveURL(new RegExp(`rate_table_id=${sell.id}`));
  await pick(page, page.getByTestId('analysis-table'), compare.name);
  await expect(page).toHaveURL(new RegExp(`rate_table_id=${compare.id}`));

  const summary = page.getByTestId('analysis-summary');
  await expect(summary).toContainText(compare.name);
  await expect(page.getByTestId('summary-all')).toHaveText('All codes: 4');
  await expect(page.getByTestId('summary-new')).toHaveText('New codes: 1');
  await expect(page.getByTestId('summary-increase')).toHaveText('Increases: 1');
  await expect(page.getByTestId('summary-decrease')).toHaveText('Decreases: 1');
  await expect(page.getByTestId('summary-ended')).toHaveText('Would be ended: 1');
  // 44: 0.0100 now, 0.0110 generated (+10 %); 49 is new, priced now by 4; 4 is not generated.
  await expect(page.getByTestId('analysis-44')).toContainText('Increase');
  await expect(page.getByTestId('analysis-44')).toContainText('0.0100');
  await expect(page.getByTestId('analysis-44')).toContainText('0.0110');
  await expect(page.getByTestId('analysis-44')).toContainText('10.00 %');
  await expect(page.getByTestId('analysis-33')).toContainText('Decrease');
  await expect(page.getByTestId('analysis-33')).toContainText('-16.67 %');
  await expect(page.getByTestId('analysis-49')).toContainText('New');
  await expect(page.getByTestId('analysis-49')).toContainText('0.0700 (4)');
  await expect(page.getByTestId('analysis-4')).toContainText('Ended');

  await page.getByTestId('summary-decrease').click();
  await expect(page.getByTestId('list-total')).toContainText('1');
  await expect(page.getByTestId('analysis-rows').locator('tbody tr[data-testid^="analysis-"]')).toHaveCount(
    1,
  );
  await expect(page.getByTestId('analysis-33')).toBeVisible();

  const downloading = page.waitForEvent('download');
  await page.getByTestId('export-analysis').click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^rate_generation_\d+_analysis_gen_compare_\w+\.csv$/);
  const lines = fs
    .readFileSync((await file.path())!, 'utf8')
    .trim()
    .split('\r\n');
  expect(lines).toHaveLength(2);
  // Negative amounts carry the apostrophe of the formula-safe CSV cells (contract csvCell).
  expect(lines[1]).toMatch(/^33,France,,decrease,0\.0300,[^,]+,0\.0250,'-0\.0050,'-16\.67,,$/);
});

test('a US jurisdictional run is compared in the column chosen: the main rate, then intra', async ({
  page,
}) => {
  const token = await adminToken();
  const costs = await rateTableWith(
    token,
    'gen_us_costs',
    [{ code: '1212', code_name: 'New York', rate: '0.0100', inter_rate: '0.0100', intra_rate: '0.0050' }],
    'us_jurisdictional',
  );
  const vendor = await vendorWithTrunk(token, { rateTableId: costs.id, ip: randomIp() });
  const target = await rateTableWith(
    token,
    'gen_us_target',
    [{ code: '1212', code_name: 'New York', rate: '0.0110', inter_rate: '0.0110', intra_rate: '0.0040' }],
    'us_jurisdictional',
  );
  const { object_id: templateId } = await call(api.rateGeneration.template.create, {
    token,
    body: {
      name: unique('us_gen'),
      rate_table_type: 'us_jurisdictional',
      egress_trunks: [vendor.trunkId],
      margins: [{ rate_from: '0', rate_to: null, markup_type: 'percentage', markup: '50' }],
    },
  });
  const { object_id: runId } = await call(api.rateGeneration.generate, {
    token,
    params: { id: templateId },
    body: {},
  });
  await expect
    .poll(async () => (await call(api.rateGeneration.getHistory, { token, params: { id: runId } })).status)
    .toBe('Finished');

  await enterAsAdmin(
    page,
    `/tools/rate_generation/history/analysis?rate_generation_id=${runId}&rate_table_id=${target.id}`,
  );
  // The main rate: 0.0100 + 50 % = 0.0150 against 0.0110.
  const row = page.getByTestId('analysis-1212');
  await expect(row).toContainText('0.0110');
  await expect(row).toContainText('0.0150');
  await pick(page, page.getByTestId('analysis-column'), 'Intra Rate');
  await expect(page).toHaveURL(/column=intra_rate/);
  // Intra: 0.0050 + 50 % = 0.0075 against 0.0040.
  await expect(row).toContainText('Increase');
  await expect(row).toContainText('0.0040');
  await expect(row).toContainText('0.0075');
  await expect(row).toContainText('87.50 %');
  await expect(page.getByTestId('analysis-summary')).toContainText('Intra Rate');
});
