import fs from 'node:fs';
import path from 'node:path';
import { expect, type Locator, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { call } from './api';
import { SDF_DECK } from './switch';
import { enterAsAdmin, expectPath, flash } from './ui';

/**
 * Rate screens (issue 3): a rate table created at /routing/rate_table/new and a rate file imported
 * on its rates page (/routing/rate_table/editing_rates/{id}) through the upload widget's header
 * mapping, as an operator does it.
 */

/** How the SDF deck's columns map to the rate file columns (Status is left out). */
export const SDF_MAPPING: Record<string, string> = {
  Destination: 'code_name',
  Prefix: 'code',
  'First Interval': 'min_time',
  'Sub Interval': 'interval',
  Rate: 'rate',
  Status: 'ignore',
  'Start Date': 'effective_date',
  'End Date': 'end_date',
};

/** The SDF deck as a file for the upload widget. */
export const sdfDeckFile = () => ({
  name: path.basename(SDF_DECK),
  mimeType: 'text/csv',
  buffer: fs.readFileSync(SDF_DECK),
});

/** Creates an A-Z rate table on /routing/rate_table/new; returns its id (looked up by its unique name). */
export async function createRateTableOnScreen(page: Page, token: string, name: string): Promise<number> {
  await enterAsAdmin(page, '/routing/rate_table/new');
  await page.getByTestId('field-name').fill(name);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toHaveText('Created successfully');
  await expectPath(page, '/routing/rate_table');
  const list = await call(api.rates.rateTable.list, { token, query: { name } });
  const row = list.items.find((r) => r.name === name);
  if (!row) throw new Error(`rate table ${name} not listed after creation`);
  return row.rate_table_id;
}

/** Picks the option whose text is exactly `label` in an antd select. */
async function pickExact(page: Page, select: Locator, label: string): Promise<void> {
  await select.click();
  // Long option lists are virtual: type to narrow them where the select searches.
  const search = select.locator('input');
  if ((await search.count()) > 0 && (await search.first().isEditable())) await search.first().fill(label);
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').last();
  const option = dropdown.locator('.ant-select-item-option').filter({
    hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`),
  });
  await option.first().scrollIntoViewIfNeeded();
  await option.first().click();
  await expect(dropdown).toBeHidden();
}

/**
 * On the rates page of table `id`: opens the import, chooses the duplicate handling, adds the file,
 * maps its columns (file header -> expected header) in the header dialog, starts the upload and
 * waits for the background job's outcome. Returns the outcome panel.
 *
 * In the header dialog each position is an expected header; choosing one for a file column moves
 * that column under it, so columns are found by their caption ("Column 2: Prefix"), not by position.
 */
export async function importOnRatesPage(
  page: Page,
  id: number,
  file: { name: string; mimeType: string; buffer: Buffer },
  opts: {
    mapping: Record<string, string>;
    duplicates: 'Reject the entire import' | 'Skip the record' | 'Overwrite the existing record';
  },
): Promise<Locator> {
  await enterAsAdmin(page, `/routing/rate_table/editing_rates/${id}`);
  await page.getByTestId('rates-import').click();
  await pickExact(page, page.getByTestId('import-duplicate-mode'), opts.duplicates);
  await page.getByTestId('rate-upload-input').setInputFiles(file);
  const mapping = page.getByTestId('rate-upload-mapping');
  await expect(mapping).toBeVisible();
  const column = (source: string) =>
    mapping.locator('th').filter({ hasText: new RegExp(`Column \\d+: ${source}$`) });
  const entries = Object.entries(opts.mapping);
  for (const [source, header] of entries)
    await pickExact(page, column(source).getByTestId('rate-upload-header-select'), header);
  for (const [source, header] of entries)
    await expect(column(source).getByTestId('rate-upload-header-select')).toHaveText(header);
  await page.getByTestId('rate-upload-mapping-save').click();
  await expect(mapping).toBeHidden();
  await page.getByTestId('rate-upload-start').click();
  const outcome = page.getByTestId('import-outcome');
  await expect(outcome).toHaveAttribute('data-status', /^(Finished|Failed)$/, { timeout: 120_000 });
  return outcome;
}
