import { expect, test, type Page } from '@playwright/test';
import { api } from '@tandem/contract';
import { baseUrl, call, createCarrierUser, unique } from '../support/api';
import { engineSettled, pick, randomIp, rateTableWith } from '../support/switch';
import { cdrOf, postCdrs } from '../support/cdrs';
import { adminToken, enterAs, enterAsAdmin, flash } from '../support/ui';

/**
 * Agents, browser proof (issue 15): an admin creates an agent (10 % of revenue, daily), assigns it
 * two customers whose calls of three days ago came in through the real CDR ingest (a third
 * customer's calls do not count), runs the commission job from the Commission Report, sees each
 * closed day's commission equal its clients' revenue times 10 % (half up to cents), records a payout
 * that lowers what is owed; the agent then sees its dashboard, only its own clients, and its
 * commission history with the payout.
 */

// Long flows (a form, assignments, a background job, a payout): more time than a one-page spec.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const DAY_MS = 86_400_000;
const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
const callDay = new Date(today - 3 * DAY_MS);
const since = new Date(today - 4 * DAY_MS).toISOString().slice(0, 10);
const agentName = unique('Agent');
const login = { name: `${agentName.toLowerCase()}_login`, password: 'Agent#2026' };
let mine: Awaited<ReturnType<typeof createCarrierUser>>[] = [];
let other: Awaited<ReturnType<typeof createCarrierUser>>;
let revenue = 0n; // micro-units, of the agent's two clients

const micros = (v: string) => {
  const [w, f = ''] = v.split('.');
  return BigInt(w!) * 1_000_000n + BigInt((f + '000000').slice(0, 6));
};
/** 10 % of an amount in micro-units, rounded half up to cents, as text with 2 decimals. */
const tenPercent = (m: bigint) => {
  const cents = (m + 50_000n) / 100_000n; // m / 10 micro-units = m / 100,000 cents
  return `${cents / 100n}.${String(cents % 100n).padStart(2, '0')}`;
};

async function sendCalls(key: string, trunk: number, ip: string, n: number): Promise<string> {
  const start = callDay.getTime() + 10 * 3_600_000;
  const cdrs = Array.from({ length: n }, (_, i) =>
    cdrOf({
      callId: unique(`agent-call-${i}`),
      start: start + i * 60_000,
      duration: 37 + i * 11,
      ingressTrunk: trunk,
      egressTrunk: null,
      sourceIp: ip,
      dnis: '442071234567',
    }),
  );
  const stored = await postCdrs(key, cdrs, 'agent-batch');
  expect(stored.stored).toBe(n);
  return stored.revenue;
}

test.beforeAll(async () => {
  const token = await adminToken();
  const table = await rateTableWith(token, 'agent_client', [
    { code: '4420', code_name: 'UK London', rate: '0.0637' },
  ]);
  const { key } = await call(api.routing.createSwitchKey, { token, body: { name: unique('agent_proxy') } });
  const customers = [];
  for (const n of ['AgentClientA', 'AgentClientB', 'OtherClient']) {
    const c = await createCarrierUser(token, { name: unique(n) });
    const ip = randomIp();
    const trunk = await call(api.trunks.trunk.create, {
      token,
      body: {
        name: unique(`${n}_in`),
        carrier_id: c.clientId,
        direction: 'ingress',
        rate_table_id: table.id,
        hosts: [{ host_type: 'ip', host: ip, port: null, netmask: 32 }],
      },
    });
    customers.push({ c, trunk: trunk.object_id, ip });
  }
  await engineSettled(token);
  for (const [i, x] of customers.entries()) {
    const r = await sendCalls(key, x.trunk, x.ip, 3 + i);
    if (i < 2) revenue += micros(r);
  }
  expect(revenue).toBeGreaterThan(0n);
  mine = customers.slice(0, 2).map((x) => x.c);
  other = customers[2]!.c;
});

async function field(page: Page, name: string, value: string) {
  await page.getByTestId(`field-${name}`).fill(value);
}

test('an admin creates an agent, assigns its clients, computes its commission and records a payout', async ({
  page,
}) => {
  await enterAsAdmin(page, '/agent/agent_management/new');
  const form = page.getByTestId('form-agent');
  await field(page, 'agent_name', agentName);
  await field(page, 'email', `${agentName.toLowerCase()}@example.com`);
  await form.getByRole('tab', { name: 'Commission' }).click();
  await pick(page, page.getByTestId('field-commission_method'), 'By revenue');
  await field(page, 'commission_percent', '10');
  await pick(page, page.getByTestId('field-frequency'), 'Daily');
  await field(page, 'commission_since', since);
  await form.getByRole('tab', { name: 'Credentials' }).click();
  await field(page, 'name', login.name);
  await field(page, 'passwd', login.password);
  await page.getByTestId('form-save').click();
  await expect(flash(page)).toBeVisible();
  const row = page.locator('tr').filter({ hasText: agentName });
  await expect(row).toContainText('Daily');

  // Manage Clients: assign the two customers.
  await row.getByRole('button', { name: 'Manage Clients' }).click();
  const clients = page.getByTestId('agent-clients');
  for (const c of mine) {
    await pick(page, page.getByTestId('assign-select'), c.carrierName);
    await page.getByTestId('assign-button').click();
    await expect(flash(page)).toContainText('1 carrier(s) assigned');
    await expect(clients).toContainText(c.carrierName);
  }
  await expect(clients).not.toContainText(other.carrierName);

  // Commission Report: run the job; the day of the calls earns 10 % of its clients' revenue.
  await page.getByRole('button', { name: 'Commission Report' }).click();
  await page.getByTestId('calculate').click();
  const day = callDay.toISOString().slice(0, 10);
  const expected = tenPercent(revenue);
  // The job runs in the background: wait for its period, then read the page.
  const token = await adminToken();
  await expect
    .poll(
      async () =>
        (
          await call(api.agents.commissionReport, { token, query: { from: day, per_page: 100 } as never })
        ).items.some((p) => p.agent_name === agentName && p.period_start.startsWith(day)),
      { timeout: 30_000 },
    )
    .toBe(true);
  await page.reload();
  await expect(page.getByTestId(`period-${day}`)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId('commission-total')).toHaveText(expected);
  await page.getByTestId(`period-${day}`).click();
  const detail = page.getByTestId('period-clients');
  for (const c of mine) await expect(detail).toContainText(c.carrierName);
  await page.keyboard.press('Escape');

  // New Payout Record: 0.01 paid; owed goes down by it, one ledger row.
  await page.goto(`${baseUrl()}/#/agent/commission_history`);
  await page.getByTestId('new-payout').click();
  await pick(page, page.getByTestId('filter-agent'), agentName);
  await field(page, 'reference', 'TX-70');
  // More than is owed is refused with the server's message on the field.
  await field(page, 'amount', '999');
  await page.getByTestId('form-save').click();
  await expect(page.getByTestId('form-payout')).toContainText(
    `The payout exceeds the commission owed (${expected})`,
  );
  await field(page, 'amount', '0.01');
  await page.getByTestId('form-save').click();
  const owed = (micros(expected) - 10_000n) / 10_000n;
  const owedText = `${owed / 100n}.${String(owed % 100n).padStart(2, '0')}`;
  await expect(flash(page)).toContainText(`Payout recorded; owed now ${owedText}`);
  await expect(page.getByTestId('owed')).toHaveText(owedText);
  await expect(page.getByTestId('commission-ledger')).toContainText('TX-70');
});

test('the agent sees its dashboard, only its own clients and its commission history', async ({ page }) => {
  await enterAs(page, login.name, login.password, '/agents/management/agent_dashboard');
  await expect(page.getByTestId('agent-dashboard')).toContainText('2');
  await expect(page.getByTestId('agent-chart')).toBeVisible();

  await page.goto(`${baseUrl()}/#/agents/client/client_list`);
  const list = page.getByTestId('portal-clients');
  for (const c of mine) await expect(list).toContainText(c.carrierName);
  await expect(list).not.toContainText(other.carrierName);

  // Another carrier's page is not found, whatever id is typed.
  await page.goto(`${baseUrl()}/#/agents/client/edit/${other.clientId}`);
  await expect(page.getByTestId('error-form-message')).toHaveText('No record found');
  await expect(page.getByTestId('form-portal-client')).toHaveCount(0);

  await page.goto(`${baseUrl()}/#/agents/statistics/commission_history`);
  const ledger = page.getByTestId('commission-ledger');
  await expect(ledger).toContainText('Commission');
  await expect(ledger).toContainText('Payout');
  await expect(ledger).not.toContainText(agentName); // no agent column in its own portal

  // Its figures in its language (issue 17): de groups with "." and writes decimals with ",".
  await page.goto(`${baseUrl()}/#/agents/management/agent_dashboard`);
  await page.evaluate(() => localStorage.setItem('languages', 'de'));
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de', { timeout: 30_000 });
  const figures = page.locator('[data-testid^="agent-"] .ant-statistic-content');
  await expect(figures).toHaveCount(8);
  for (const text of await figures.allInnerTexts())
    expect(text.trim(), 'a figure written as de writes numbers').toMatch(/^-?\d{1,3}(\.\d{3})*(,\d{2})?$/);
  await expect(page.getByTestId('agent-period')).toContainText('0,00'); // minutes of the open day
});
