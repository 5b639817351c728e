import { expect, test } from '@playwright/test';
import { api } from '@tandem/contract';
import { call, createAgent, createCarrierUser, unique } from '../support/api';
import { rateTableWith } from '../support/switch';
import { adminToken, enterAs } from '../support/ui';

/**
 * The agent portal's Clients and Products menus (spec 01 agent portal, issue 15): an agent with two
 * clients sees their invoices, payments and balance moves and nothing of another agent's client,
 * and the products it may sell (public, or assigned to it) with their rates, not another agent's
 * private product.
 */
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let agent: Awaited<ReturnType<typeof createAgent>>;
let mine: Awaited<ReturnType<typeof createCarrierUser>>[] = [];
let other: Awaited<ReturnType<typeof createCarrierUser>>;
const invoices: Record<number, string> = {};
const products = { pub: unique('Public'), mine: unique('Mine'), theirs: unique('Theirs') };

test.beforeAll(async () => {
  const token = await adminToken();
  agent = await createAgent(token, { name: unique('PortalAgent') });
  const rival = await createAgent(token, { name: unique('RivalAgent') });
  mine = [
    await createCarrierUser(token, { name: unique('AgClientA'), agent_id: agent.agentId }),
    await createCarrierUser(token, { name: unique('AgClientB'), agent_id: agent.agentId }),
  ];
  other = await createCarrierUser(token, { name: unique('RivalClient'), agent_id: rival.agentId });
  for (const [i, c] of [...mine, other].entries()) {
    const inv = await call(api.billing.createInvoice, {
      token,
      body: { client_id: c.clientId, date_from: '2026-08-01', date_to: '2026-08-31' } as never,
    });
    invoices[c.clientId] = inv.invoice_number;
    await call(api.billing.createPayment, {
      token,
      body: { client_id: c.clientId, amount: `${11 + i}`, transaction_id: `TX-${c.carrierName}` } as never,
    });
  }
  const plan = await call(api.routing.routingPlan.create, { token, body: { name: unique('agent_plan') } });
  const table = async (prefix: string, code: string) =>
    (await rateTableWith(token, prefix, [{ code, code_name: `Zone ${code}`, rate: '0.0123' }])).id;
  const product = (name: string, rate_table_id: number, extra: Record<string, unknown>) =>
    call(api.carriers.product.create, {
      token,
      body: { name, rate_table_id, routing_plan_id: plan.object_id, ...extra } as never,
    });
  await product(products.pub, await table('ag_pub', '4420'), {});
  await product(products.mine, await table('ag_mine', '4930'), {
    scope: 'private',
    agent_ids: [agent.agentId],
  });
  await product(products.theirs, await table('ag_theirs', '3312'), {
    scope: 'private',
    agent_ids: [rival.agentId],
  });
});

test("the agent sees its clients' invoices, payments and transactions, never another agent's", async ({
  page,
}) => {
  await enterAs(page, agent.name, agent.password, '/agents/client/client_invoice');
  const table = page.getByTestId('invoices');
  for (const c of mine) await expect(page.getByTestId(`invoice-${invoices[c.clientId]}`)).toBeVisible();
  await expect(table).toContainText(mine[0]!.carrierName);
  await expect(table).not.toContainText(other.carrierName);
  await expect(page.getByTestId(`invoice-${invoices[other.clientId]}`)).toHaveCount(0);

  // Another agent's client sent in the URL shows nothing (the server keeps the agent to its own).
  // (An empty list has no pagination, so no "Total" line: wait for the server's answer instead.)
  const answer = page.waitForResponse(
    (r) => r.url().includes('/api/finance/invoice/list') && r.url().includes(`client_id=${other.clientId}`),
  );
  await page.goto(`${page.url().split('#')[0]}#/agents/client/client_invoice?client_id=${other.clientId}`);
  const body = (await (await answer).json()) as { payload: { total: number } };
  expect(body.payload.total).toBe(0);
  await expect(table.locator('.ant-table-placeholder')).toBeVisible();
  await expect(table.locator('tr.ant-table-row')).toHaveCount(0);
  await expect(table).not.toContainText(other.carrierName);

  // The menu: Clients > Client Payment lists both clients' payments, not the other's.
  // (the top bar's entries are buttons, a dropdown of links under Clients; not menu items)
  await page.getByTestId('menu-clients').hover();
  await page.getByTestId('menu-item-client_payment').click();
  await expect(page).toHaveURL(/#\/agents\/client\/client_payment$/);
  const payments = page.getByTestId('payments');
  for (const c of mine) await expect(payments).toContainText(`TX-${c.carrierName}`);
  await expect(payments).not.toContainText(`TX-${other.carrierName}`);

  // From the client list: one client's payments and its transactions.
  await page.goto(`${page.url().split('#')[0]}#/agents/client/client_list`);
  const row = page.getByTestId('portal-clients').locator('tr').filter({ hasText: mine[1]!.carrierName });
  await row.getByRole('link', { name: 'Payments' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(mine[1]!.carrierName);
  await expect(payments).toContainText(`TX-${mine[1]!.carrierName}`);
  await expect(payments).not.toContainText(`TX-${mine[0]!.carrierName}`);
  await page.goBack();
  await row.getByRole('link', { name: 'Transactions' }).click();
  const ledger = page.getByTestId('ledger');
  await expect(ledger).toContainText(mine[1]!.carrierName);
  await expect(ledger).not.toContainText(mine[0]!.carrierName);
  await expect(ledger).not.toContainText(other.carrierName);
});

test('the agent sees the products it may sell and their rates', async ({ page }) => {
  await enterAs(page, agent.name, agent.password, '/agents/management/agent_dashboard');
  await page.getByTestId('menu-products').click();
  await expect(page.getByTestId(`product-${products.pub}`)).toBeVisible();
  await expect(page.getByTestId(`product-${products.mine}`)).toContainText('Assigned to you');
  await expect(page.getByTestId(`product-${products.theirs}`)).toHaveCount(0);
  await page.getByTestId(`product-${products.mine}`).getByTestId('view-rates').click();
  const rates = page.getByTestId('rates');
  await expect(rates).toContainText('4930');
  await expect(rates).toContainText('Zone 4930');
  await expect(rates).toContainText('0.0123');
});
