import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createCarrierUser, unique } from '../support/api';
import { rateTableWith } from '../support/switch';
import { adminToken, enterAs } from '../support/ui';

/**
 * The client portal's Products: the public products and those assigned to the carrier, each with
 * its rates (`/clients/termination/view_rates/{product_id}`); another carrier's private product
 * is not there.
 */
test('a customer finds the products it may buy and their rates, not another carrier’s', async ({ page }) => {
  const token = await adminToken();
  const client = await createCarrierUser(token, { name: unique('ProdCo') });
  const other = await createCarrierUser(token, { name: unique('OtherProd') });
  const table = await rateTableWith(token, unique('prod_table'), [
    { code: '4930', code_name: 'Berlin', rate: '0.0123' },
  ]);
  const plan = (await call(api.routing.routingPlan.create, { token, body: { name: unique('prod_plan') } }))
    .object_id;
  const mine = unique('Germany Premium');
  const theirs = unique('Other Private');
  await call(api.carriers.product.create, {
    token,
    body: {
      name: mine,
      rate_table_id: table.id,
      routing_plan_id: plan,
      scope: 'private',
      carrier_ids: [client.clientId],
    } as never,
  });
  await call(api.carriers.product.create, {
    token,
    body: {
      name: theirs,
      rate_table_id: table.id,
      routing_plan_id: plan,
      scope: 'private',
      carrier_ids: [other.clientId],
    } as never,
  });

  await enterAs(page, client.name, client.password, '/clients/management/analytics_dashboard');
  await page.getByTestId('menu-products').click();
  await expect(page.locator('h1')).toHaveText('Products');
  await expect(page.getByTestId(`product-${mine}`)).toBeVisible();
  await expect(page.getByTestId('products')).not.toContainText(theirs);
  await page.getByTestId(`product-${mine}`).getByTestId('view-rates').click();
  await expect(page.locator('h1')).toContainText(mine);
  const row = page.getByTestId('rates').locator('tbody tr.ant-table-row').first();
  await expect(row).toContainText('4930');
  await expect(row).toContainText('Berlin');
  await expect(row).toContainText('0.0123');
});
