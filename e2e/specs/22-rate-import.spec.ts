import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call } from '../support/api';
import { importOnRatesPage, SDF_MAPPING, sdfDeckFile } from '../support/rates';
import { deckRows, rateTableWith } from '../support/switch';
import { adminToken, enterAsAdmin, expectPath } from '../support/ui';

/**
 * Issue 3, browser proof: "an import with a bad row under 'reject' changes nothing and shows the
 * row's error". The file is the real SDF deck (27,523 rows): nine of its rows have no rate, so under
 * "Reject the entire import" the whole deck is refused. The rate table already holds three rows of
 * the deck at other rates; they must be exactly as before, and none of the deck's good rows may be
 * added.
 */

test.use({ timezoneId: 'UTC' });

test('a rate import with bad rows under "reject" changes nothing and shows each row\'s error', async ({
  page,
}) => {
  test.slow();
  const token = await adminToken();
  const codes = ['9320', '9340', '9360'];
  const table = await rateTableWith(
    token,
    'reject_import',
    deckRows(codes).map((d) => ({
      code: d.code,
      code_name: d.destination,
      rate: '0.5000',
      min_time: 60,
      interval: 60,
      effective: '2010-01-01T00:00:00Z',
    })),
  );
  const ratesOf = async () =>
    (
      await call(api.rates.listRates, {
        token,
        params: { id: table.id },
        query: { per_page: 100, state: 'all' },
      })
    ).items.map((r) => [r.code, r.rate, r.min_time, r.interval, r.effective_date, r.end_date]);
  const before = await ratesOf();
  expect(before).toHaveLength(3);

  const outcome = await importOnRatesPage(page, table.id, sdfDeckFile(), {
    mapping: SDF_MAPPING,
    duplicates: 'Reject the entire import',
  });

  // The job failed as a whole, naming the count; the first bad row is line 583 (code 43820).
  await expect(outcome).toHaveAttribute('data-status', 'Failed');
  await expect(page.getByTestId('import-result')).toContainText(
    'Import rejected: 9 row(s) with errors; nothing was changed',
  );
  await expect(page.getByTestId('import-errors')).toBeVisible();
  await expect(page.getByText('Rows with errors (9)')).toBeVisible();
  const firstError = page.getByTestId('import-error-583');
  await expect(firstError).toContainText('43820');
  await expect(firstError).toContainText('rate');
  await expect(firstError).toContainText('rate is required');

  // The rate import log lists the failed import with its rows in error (the link opens it expanded).
  const href = await page.getByTestId('open-import-log').getAttribute('href');
  const taskId = Number(/task=(\d+)/.exec(href ?? '')?.[1]);
  expect(taskId).toBeGreaterThan(0);
  await page.getByTestId('open-import-log').click();
  await expectPath(page, '/log/rate_import_log');
  await expect(page.getByTestId(`import-status-${taskId}`)).toHaveText('Failed');
  await expect(page.getByTestId(`import-message-${taskId}`)).toHaveText(
    'Import rejected: 9 row(s) with errors; nothing was changed',
  );
  await expect(page.getByTestId(`import-errors-${taskId}`).getByTestId('import-error-583')).toContainText(
    'rate is required',
  );

  // The table's rates are exactly as before, on the server and on the page.
  expect(await ratesOf()).toEqual(before);
  await enterAsAdmin(page, `/routing/rate_table/editing_rates/${table.id}`);
  await expect(page.getByTestId('list-total')).toHaveText('Total 3');
  for (const code of codes) await expect(page.getByTestId(`rate-row-${code}`)).toContainText('0.5000');
});
