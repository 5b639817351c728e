import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { api } from '@tandem/contract';
import type { z } from 'zod';
import { changeSummaries, type SummaryCdr } from '../../src/modules/stats/summaries';
import { computeAgentCommission } from '../../src/modules/agents/commission';
import {
  auditRows,
  denied,
  fails,
  invalid,
  holdRecurringJob,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  USER_PASSWD,
  type Harness,
} from './harness';

type Report = z.output<typeof api.agents.commissionReport.payload>;
type History = z.output<typeof api.agents.commissionHistory.payload>;
type AgentRow = z.output<typeof api.agents.agentRow>;
type Clients = z.output<typeof api.agents.portalClients.payload>;
type Dashboard = z.output<typeof api.agents.dashboard.payload>;

let h: Harness;
let admin: string;
const db = () => h.built.services.db;
const carriers: Record<string, number> = {};
const carrierTokens: Record<string, string> = {};

/** One answered call of a client on a day, as the ingest (or a rerate) leaves it in the summaries. */
const call = (client: number, at: string, revenue: string, cost: string): SummaryCdr => ({
  start_time: at,
  answer_time: at,
  ingress_client_id: client,
  egress_client_id: 0,
  ingress_trunk_id: 0,
  egress_trunk_id: 0,
  source_ip: '198.51.100.1',
  egress_host: null,
  egress_code: '44',
  term_country: 'UK',
  release_cause: 200,
  release_side: 'O',
  call_duration: 60,
  pdd: 0,
  ingress_billed_time: 60,
  egress_billed_time: 60,
  ingress_client_cost: revenue,
  short_call_charge: '0',
  egress_cost: cost,
  unpriced_reason: null,
});
const traffic = (rows: SummaryCdr[], sign: 1 | -1 = 1) =>
  db()
    .transaction()
    .execute((trx) => changeSummaries(trx, [[rows, sign]]));

async function createAgent(body: Record<string, unknown>): Promise<number> {
  const r = await h.call<{ object_id: number }>('POST', '/api/agents/create', { token: admin, body });
  return ok(r).object_id;
}
const agentBody = (name: string, extra: Record<string, unknown> = {}) => ({
  agent_name: name,
  email: `${name.toLowerCase()}@agents.example.com`,
  name: `${name.toLowerCase()}_login`,
  passwd: USER_PASSWD,
  ...extra,
});
const report = (token: string, q = '') =>
  h.call<Report>('GET', `/api/agents/commission/report?${q}`, { token });
const history = (token: string, q = '') =>
  h.call<History>('GET', `/api/agents/commission/history?${q}`, { token });

let weekly: number; // revenue 5 %, weekly, since Monday 2026-10-05
let monthly: number; // profit 10 %, monthly
let weeklyToken: string;

beforeAll(async () => {
  h = await startHarness();
  // The hourly commission slot would compute up to the real now; these tests pick their own "now".
  await holdRecurringJob(h, 'agents.commission');
  admin = await h.setupAdmin();
  for (const n of ['Alpha', 'Bravo', 'Charlie', 'Delta']) {
    const u = await makeCarrierUser(h, admin, n);
    carriers[n] = u.clientId;
    carrierTokens[n] = u.token;
  }
  weekly = await createAgent(
    agentBody('Weekly', {
      commission_method: 'revenue',
      commission_percent: '5',
      frequency: 'weekly',
      commission_since: '2026-10-05',
    }),
  );
  monthly = await createAgent(
    agentBody('Monthly', {
      commission_method: 'profit',
      commission_percent: '10',
      frequency: 'monthly',
      commission_since: '2026-10-01',
    }),
  );
  weeklyToken = await h.signIn('weekly_login', USER_PASSWD);
}, 240_000);
afterAll(() => h.close());

describe('agent management', () => {
  it('creates an agent with its portal user; the list shows login, clients and owed', async () => {
    const row = ok(await h.call<AgentRow>('GET', `/api/agents/${weekly}`, { token: admin }));
    expect(row).toMatchObject({
      agent_name: 'Weekly',
      status: 'active',
      commission_method: 'revenue',
      commission_percent: '5.0000',
      frequency: 'weekly',
      commission_since: '2026-10-05',
      balance: '0.000000',
      clients: 0,
      name: 'weekly_login',
      portal_edit: false,
    });
    expect(row.referral_key.length).toBeGreaterThan(10);
    const list = ok(
      await h.call<{ items: AgentRow[]; total: number }>('GET', '/api/agents/list?search=month', {
        token: admin,
      }),
    );
    expect(list.items.map((a) => a.agent_name)).toEqual(['Monthly']);
    expect((await auditRows(h, 'agent', weekly)).length).toBeGreaterThan(0);
  });

  it('validates: e-mail mandatory, percent 0..100, unique agent and login names', async () => {
    const post = (body: Record<string, unknown>) =>
      h.call('POST', '/api/agents/create', { token: admin, body });
    invalid(await post({ ...agentBody('NoMail'), email: undefined }), 'email');
    invalid(await post({ ...agentBody('NoMail'), email: 'not-an-email' }), 'email');
    invalid(await post(agentBody('Pct', { commission_percent: '100.5' })), 'commission_percent');
    invalid(await post(agentBody('Pct', { commission_percent: '5.12345' })), 'commission_percent');
    invalid(await post(agentBody('Pct', { frequency: 'yearly' })), 'frequency');
    fails(await post({ ...agentBody('weekly'), name: 'other_login' }), 160, 'Agent [weekly] already exists');
    fails(
      await post({ ...agentBody('Other'), name: 'weekly_login' }),
      160,
      'User [weekly_login] already exists',
    );
    invalid(await post({ ...agentBody('Other'), passwd: 'short' }), 'passwd');
  });

  it('changes an agent, its login password; only admins with the permission', async () => {
    ok(
      await h.call('PATCH', `/api/agents/${monthly}`, {
        token: admin,
        body: { email: 'monthly2@agents.example.com', passwd: 'Other#2026' },
      }),
    );
    await h.signIn('monthly_login', 'Other#2026');
    const { token: restricted } = await makeRestrictedAdmin(h, admin, 'noagents');
    denied(await h.call('GET', '/api/agents/list', { token: restricted }));
    denied(await h.call('GET', '/api/agents/list', { token: weeklyToken }));
    denied(await h.call('POST', '/api/agents/commission/payout', { token: weeklyToken, body: {} }));
  });

  it('assigns and unassigns clients; unknown carriers are refused', async () => {
    const assign = (agent: number, ids: number[]) =>
      h.call<{ assigned: number }>('POST', `/api/agents/${agent}/clients/assign`, {
        token: admin,
        body: { client_ids: ids },
      });
    expect(ok(await assign(weekly, [carriers.Alpha!, carriers.Bravo!, carriers.Delta!])).assigned).toBe(3);
    expect(ok(await assign(weekly, [carriers.Alpha!])).assigned).toBe(0);
    expect(ok(await assign(monthly, [carriers.Charlie!])).assigned).toBe(1);
    invalid(await assign(weekly, [999999]), 'client_ids');
    expect(
      ok(
        await h.call<{ unassigned: number }>('POST', `/api/agents/${weekly}/clients/unassign`, {
          token: admin,
          body: { client_ids: [carriers.Delta!, carriers.Charlie!] },
        }),
      ).unassigned,
    ).toBe(1); // Charlie is not Weekly's
    const clients = ok(
      await h.call<{ items: { name: string }[] }>('GET', `/api/agents/${weekly}/clients`, { token: admin }),
    );
    expect(clients.items.map((c) => c.name)).toEqual(['Alpha', 'Bravo']);
  });
});

describe('commission', () => {
  it("is base × percent of the agent's clients' traffic per closed period, rounded half up to cents", async () => {
    await traffic([
      call(carriers.Alpha!, '2026-10-06T10:00:00Z', '100.123456', '80'),
      call(carriers.Bravo!, '2026-10-08T23:59:00Z', '50', '60'),
      call(carriers.Charlie!, '2026-10-06T10:00:00Z', '1000', '900.5'), // Monthly's client
      call(carriers.Delta!, '2026-10-06T10:00:00Z', '7777', '1'), // nobody's
      call(carriers.Alpha!, '2026-10-12T00:00:00Z', '10.005', '1'), // second week
      call(carriers.Alpha!, '2026-10-19T00:00:00Z', '99', '1'), // third week, still open on the 20th
      call(carriers.Alpha!, '2026-10-04T23:59:59Z', '99', '1'), // before commission_since
    ]);
    const now = new Date('2026-10-20T12:00:00Z');
    const run = await computeAgentCommission(db(), weekly, now);
    expect(run).toMatchObject({ created: 2, corrected: 0, accrued: '8.010000' });
    const r = ok(await report(admin, `agent_id=${weekly}&order_by=period_start&order_dir=asc`));
    expect(r.items.map((p) => [p.period_start.slice(0, 10), p.revenue, p.base, p.amount, p.clients])).toEqual(
      [
        ['2026-10-05', '150.123456', '150.123456', '7.510000', 2], // 7.5061728
        ['2026-10-12', '10.005000', '10.005000', '0.500000', 2], // 0.50025
      ],
    );
    expect(r.totals.amount).toBe('8.010000');
    // Profit: Charlie's 1000 − 900.5 = 99.5 at 10 % = 9.95; October closes on November 1st.
    expect((await computeAgentCommission(db(), monthly, now)).created).toBe(0);
    expect((await computeAgentCommission(db(), monthly, new Date('2026-11-01T00:00:00Z'))).accrued).toBe(
      '9.950000',
    );
    const m = ok(await report(admin, `agent_id=${monthly}`)).items;
    expect(m.map((p) => [p.period_start.slice(0, 10), p.method, p.base, p.amount])).toEqual([
      ['2026-10-01', 'profit', '99.500000', '9.950000'],
    ]);
    // Details of a period: its clients' traffic.
    const detail = ok(
      await h.call<{ items: { name: string; revenue: string }[] }>(
        'GET',
        `/api/agents/commission/report/${weekly}/2026-10-05`,
        { token: admin },
      ),
    );
    expect(detail.items).toEqual([
      expect.objectContaining({ name: 'Alpha', revenue: '100.123456', cost: '80.000000' }),
      expect.objectContaining({ name: 'Bravo', revenue: '50.000000', cost: '60.000000' }),
    ]);
  });

  it('runs again without writing anything; each accrual is one ledger row', async () => {
    const now = new Date('2026-10-20T12:00:00Z');
    expect(await computeAgentCommission(db(), weekly, now)).toMatchObject({ created: 0, corrected: 0 });
    // Two runners at once: the agent row lock makes them take turns; the second finds nothing.
    const both = await Promise.all([
      computeAgentCommission(db(), weekly, new Date('2026-10-27T00:00:00Z')),
      computeAgentCommission(db(), weekly, new Date('2026-10-27T00:00:00Z')),
    ]);
    expect(both.map((b) => b.created).sort()).toEqual([0, 1]);
    const hist = ok(await history(admin, `agent_id=${weekly}`));
    expect(hist.items.map((l) => [l.kind, l.ref, l.amount, l.balance_after])).toEqual([
      ['commission', 'commission:2026-10-19:1', '4.950000', '12.960000'],
      ['commission', 'commission:2026-10-12:1', '0.500000', '8.010000'],
      ['commission', 'commission:2026-10-05:1', '7.510000', '7.510000'],
    ]);
    expect(hist.owed).toBe('12.960000');
  });

  it('rerated traffic: the difference is a new correction row, the period keeps its terms and clients', async () => {
    // A rerate moves Alpha's call of Oct 6 from 100.123456 to 200.123456 (old out, new in).
    await traffic([call(carriers.Alpha!, '2026-10-06T10:00:00Z', '100.123456', '80')], -1);
    await traffic([call(carriers.Alpha!, '2026-10-06T10:00:00Z', '200.123456', '80')]);
    // Meanwhile the agent's percent changes and Bravo moves to another agent: history stays.
    ok(await h.call('PATCH', `/api/agents/${weekly}`, { token: admin, body: { commission_percent: '50' } }));
    ok(
      await h.call('POST', `/api/agents/${monthly}/clients/assign`, {
        token: admin,
        body: { client_ids: [carriers.Bravo!] },
      }),
    );
    const run = await computeAgentCommission(db(), weekly, new Date('2026-10-27T00:00:00Z'));
    expect(run).toMatchObject({ created: 0, corrected: 1, accrued: '5.000000' });
    const p = ok(await report(admin, `agent_id=${weekly}&from=2026-10-05&to=2026-10-06`)).items[0]!;
    // 250.123456 × 5 % = 12.5061728 -> 12.51; accrued 7.51 before, so +5.00.
    expect(p).toMatchObject({
      revenue: '250.123456',
      amount: '12.510000',
      accrued: '12.510000',
      revision: 2,
      percent: '5.0000',
    });
    const rows = ok(await history(admin, `agent_id=${weekly}&kind=commission`)).items;
    expect(rows[0]).toMatchObject({
      ref: 'commission:2026-10-05:2',
      amount: '5.000000',
      balance_after: '17.960000',
    });
    expect(ok(await history(admin, `agent_id=${weekly}`)).totals.commission).toBe('17.960000');
  });

  it('runs as a durable job from Calculate, for every closed period since the agent started', async () => {
    ok(await h.call('PATCH', `/api/agents/${monthly}`, { token: admin, body: { frequency: 'daily' } }));
    await traffic([call(carriers.Charlie!, '2026-11-02T08:00:00Z', '20', '10')]);
    const { job_id } = ok(
      await h.call<{ job_id: number }>('POST', '/api/agents/commission/calculate', {
        token: admin,
        body: { agent_id: monthly },
      }),
    );
    for (let i = 0; i < 200; i++) {
      const j = await db()
        .selectFrom('jobs')
        .select(['status', 'error'])
        .where('id', '=', job_id)
        .executeTakeFirstOrThrow();
      if (j.status === 'finished') break;
      if (j.status === 'failed') throw new Error(String(j.error));
      await new Promise((r) => setTimeout(r, 100));
    }
    const days = ok(
      await report(
        admin,
        `agent_id=${monthly}&from=2026-11-01&to=2026-11-03&order_dir=asc&order_by=period_start`,
      ),
    );
    // Daily periods continue after October (the last monthly one); Nov 2nd: profit 10 at 10 % = 1.00.
    expect(days.items.map((p) => [p.period_start.slice(0, 10), p.frequency, p.amount])).toEqual([
      ['2026-11-01', 'daily', '0.000000'],
      ['2026-11-02', 'daily', '1.000000'],
    ]);
    invalid(
      await h.call('POST', '/api/agents/commission/calculate', { token: admin, body: { agent_id: 999999 } }),
      'agent_id',
    );
  });
});

describe('payouts', () => {
  it('lower what is owed with one ledger row, never more than owed, once per request key', async () => {
    const pay = (body: Record<string, unknown>) =>
      h.call<{ payout_id: number; balance: string; created: boolean }>(
        'POST',
        '/api/agents/commission/payout',
        {
          token: admin,
          body: { agent_id: weekly, paid_on: '2026-11-05', ...body },
        },
      );
    invalid(await pay({ amount: '17.97' }), 'amount', 'The payout exceeds the commission owed (17.96)');
    invalid(await pay({ amount: '0' }), 'amount');
    invalid(await pay({ amount: '1.234' }), 'amount');
    invalid(await pay({ amount: '1', paid_on: '2026-02-30' }), 'paid_on');
    const first = ok(
      await pay({ amount: '10.5', method: 'wire', reference: 'TX-1', request_key: 'form-0001' }),
    );
    expect(first).toMatchObject({ balance: '7.460000', created: true });
    const again = ok(
      await pay({ amount: '10.5', method: 'wire', reference: 'TX-1', request_key: 'form-0001' }),
    );
    expect(again).toMatchObject({ payout_id: first.payout_id, balance: '7.460000', created: false });
    const rows = ok(await history(admin, `agent_id=${weekly}&kind=payout`));
    expect(rows.items.map((l) => [l.ref, l.amount, l.balance_before, l.balance_after])).toEqual([
      [`payout:${first.payout_id}`, '-10.500000', '17.960000', '7.460000'],
    ]);
    expect(rows.owed).toBe('7.460000');
    const agent = ok(await h.call<AgentRow>('GET', `/api/agents/${weekly}`, { token: admin }));
    expect(agent.balance).toBe('7.460000');
    // An agent with commission transactions cannot be deleted.
    fails(await h.call('DELETE', `/api/agents/${weekly}`, { token: admin }), 170);
  });
});

describe('agent portal: an agent sees only its own clients and commission', () => {
  it('report, details and history answer only its own, whatever agent id it sends', async () => {
    const r = ok(await report(weeklyToken, `agent_id=${monthly}`));
    expect(r.items.length).toBeGreaterThan(0);
    expect(new Set(r.items.map((p) => p.agent_id))).toEqual(new Set([weekly]));
    notVisible(
      await h.call('GET', `/api/agents/commission/report/${monthly}/2026-10-01`, { token: weeklyToken }),
    );
    const hist = ok(await history(weeklyToken, `agent_id=${monthly}`));
    expect(new Set(hist.items.map((l) => l.agent_id))).toEqual(new Set([weekly]));
    expect(hist.owed).toBe('7.460000');
    denied(await h.call('GET', `/api/agents/${monthly}/clients`, { token: weeklyToken }));
  });

  it('dashboard and client list cover its clients only', async () => {
    const d = ok(await h.call<Dashboard>('GET', '/api/agent_portal/dashboard', { token: weeklyToken }));
    expect(d).toMatchObject({ agent_name: 'Weekly', clients: 1, owed: '7.460000', frequency: 'weekly' });
    expect(d.daily).toHaveLength(30);
    const list = ok(await h.call<Clients>('GET', '/api/agent_portal/clients', { token: weeklyToken }));
    expect(list.items.map((c) => c.name)).toEqual(['Alpha']);
    expect(list.portal_edit).toBe(false);
    ok(await h.call('GET', `/api/agent_portal/clients/${carriers.Alpha}`, { token: weeklyToken }));
    for (const other of [carriers.Bravo, carriers.Charlie, carriers.Delta])
      notVisible(await h.call('GET', `/api/agent_portal/clients/${other}`, { token: weeklyToken }));
    // Other portals and admins have no agent portal.
    const client = await h.signIn('alpha_user', 'Client#2026');
    denied(await h.call('GET', '/api/agent_portal/dashboard', { token: client }));
    denied(await h.call('GET', '/api/agent_portal/dashboard', { token: admin }));
  });

  it('edits a client only with the portal edit permission, and only its own', async () => {
    const patch = (id: number, body: Record<string, unknown>) =>
      h.call('PATCH', `/api/agent_portal/clients/${id}`, { token: weeklyToken, body });
    fails(await patch(carriers.Alpha!, { company: 'Alpha Two' }), 170, 'Your account may not edit clients');
    ok(await h.call('PATCH', `/api/agents/${weekly}`, { token: admin, body: { portal_edit: true } }));
    invalid(await patch(carriers.Alpha!, { main_email: 'x' }), 'main_email');
    ok(await patch(carriers.Alpha!, { company: 'Alpha Two', noc_email: 'noc@alpha.example.com' }));
    const c = ok(
      await h.call<{ company: string; noc_email: string }>(
        'GET',
        `/api/agent_portal/clients/${carriers.Alpha}`,
        {
          token: weeklyToken,
        },
      ),
    );
    expect(c).toMatchObject({ company: 'Alpha Two', noc_email: 'noc@alpha.example.com' });
    notVisible(await patch(carriers.Bravo!, { company: 'Not mine' }));
    const bravo = await db()
      .selectFrom('carriers')
      .select('company')
      .where('client_id', '=', carriers.Bravo!)
      .executeTakeFirstOrThrow();
    expect(bravo.company).toBe('Bravo Ltd');
  });
});

describe('agent portal: invoices, payments, transactions and products of its own clients only', () => {
  type Paged = { items: { client_id?: number; client_name?: string; name?: string }[]; total: number };
  const get = <T = Paged>(path: string, token = weeklyToken) => h.call<T>('GET', path, { token });
  const invoices: Record<string, number> = {};

  beforeAll(async () => {
    // Weekly's client is Alpha; Bravo and Charlie are Monthly's; Delta is nobody's.
    for (const n of ['Alpha', 'Bravo', 'Delta']) {
      const inv = ok(
        await h.call<{ invoice_id: number }>('POST', '/api/finance/invoice/create', {
          token: admin,
          body: { client_id: carriers[n], date_from: '2026-09-01', date_to: '2026-09-30' },
        }),
      );
      invoices[n] = inv.invoice_id;
      ok(
        await h.call('POST', '/api/finance/payment/create', {
          token: admin,
          body: { client_id: carriers[n], amount: '25', note: `${n} pays` },
        }),
      );
    }
  });

  it("lists only its clients' invoices, whatever client it filters by; others are not found", async () => {
    const mine = ok(await get('/api/finance/invoice/list'));
    expect(new Set(mine.items.map((i) => i.client_name))).toEqual(new Set(['Alpha']));
    expect(ok(await get(`/api/finance/invoice/list?client_id=${carriers.Bravo}`)).items).toEqual([]);
    expect(ok(await get(`/api/finance/invoice/list?client_id=${carriers.Delta}`)).items).toEqual([]);
    expect(ok(await get(`/api/finance/invoice/list?client_id=${carriers.Alpha}`)).total).toBe(mine.total);
    ok(await get(`/api/finance/invoice/${invoices.Alpha}`));
    notVisible(await get(`/api/finance/invoice/${invoices.Bravo}`));
    notVisible(await get(`/api/finance/invoice/${invoices.Delta}`));
    const pdf = await h.built.app.inject({
      method: 'GET',
      url: `/api/finance/invoice/${invoices.Alpha}/pdf`,
      headers: { 'x-auth-token': weeklyToken },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
    notVisible(await get(`/api/finance/invoice/${invoices.Bravo}/pdf`));
    // Admin-only invoice actions stay closed to agents.
    denied(
      await h.call('POST', `/api/finance/invoice/${invoices.Alpha}/void`, { token: weeklyToken, body: {} }),
    );
  });

  it("lists only its clients' payments and balance moves", async () => {
    const pays = ok(await get('/api/finance/payment/list'));
    expect(pays.items.map((p) => p.client_name)).toEqual(['Alpha']);
    expect(ok(await get(`/api/finance/payment/list?client_id=${carriers.Delta}`)).items).toEqual([]);
    const ledger = ok(await get('/api/finance/actual_transaction/list'));
    expect(ledger.total).toBeGreaterThan(0);
    expect(new Set(ledger.items.map((l) => l.client_id))).toEqual(new Set([carriers.Alpha]));
    expect(ok(await get(`/api/finance/actual_transaction/list?client_id=${carriers.Bravo}`)).total).toBe(0);
    // Monthly sees Bravo's and Charlie's, not Alpha's.
    const monthlyToken = await h.signIn('monthly_login', 'Other#2026'); // changed above
    const theirs = ok(await get('/api/finance/payment/list', monthlyToken));
    expect(theirs.items.map((p) => p.client_name)).toEqual(['Bravo']);
    // Admin-only finance writes stay closed to agents.
    denied(
      await h.call('POST', '/api/finance/payment/create', {
        token: weeklyToken,
        body: { client_id: carriers.Alpha, amount: '1' },
      }),
    );
  });

  it('products: the public ones and those assigned to it; rates only of a product it may sell', async () => {
    const d = db();
    const table = async (name: string) => {
      const t = await d
        .insertInto('rate_tables')
        .values({ name })
        .returning('rate_table_id')
        .executeTakeFirstOrThrow();
      await d
        .insertInto('rates')
        .values({
          rate_table_id: t.rate_table_id,
          code: '44',
          country: 'UK',
          rate: '0.012',
          effective_date: new Date('2026-01-01T00:00:00Z'),
        })
        .execute();
      return t.rate_table_id;
    };
    const plan = (
      await d
        .insertInto('routing_plans')
        .values({ name: 'Agents plan' })
        .returning('route_plan_id')
        .executeTakeFirstOrThrow()
    ).route_plan_id;
    const tables = {
      pub: await table('Public AZ'),
      mine: await table('Weekly AZ'),
      theirs: await table('Monthly AZ'),
      none: await table('Unsold AZ'),
    };
    const product = (name: string, rate_table_id: number, extra: Record<string, unknown> = {}) =>
      h.call('POST', '/api/product/create', {
        token: admin,
        body: { name, rate_table_id, routing_plan_id: plan, ...extra },
      });
    ok(await product('Agents Public', tables.pub));
    ok(await product('Weekly Private', tables.mine, { scope: 'private', agent_ids: [weekly] }));
    ok(await product('Monthly Private', tables.theirs, { scope: 'private', agent_ids: [monthly] }));
    ok(await product('Alpha Private', tables.none, { scope: 'private', carrier_ids: [carriers.Alpha] }));
    const names = ok(await get('/api/product/list?per_page=100')).items.map((p) => p.name);
    expect(names).toEqual(['Agents Public', 'Weekly Private']);
    const rates = ok(
      await get<{ items: { code: string; rate: string }[]; total: number; name: string }>(
        `/api/portal/rate_tables/${tables.mine}/rates`,
      ),
    );
    expect(rates).toMatchObject({ total: 1, name: 'Weekly AZ' });
    expect(rates.items[0]).toMatchObject({ code: '44' });
    ok(await get(`/api/portal/rate_tables/${tables.pub}/rates`));
    notVisible(await get(`/api/portal/rate_tables/${tables.theirs}/rates`));
    notVisible(await get(`/api/portal/rate_tables/${tables.none}/rates`));
    notVisible(await get(`/api/portal/rate_tables/999999/rates`));
    // A client reads the rates of the public products and of those assigned to its carrier (the
    // client portal's Products > View Rates), no other; not a call for admins.
    const alpha = carrierTokens.Alpha!;
    const forAlpha = ok(
      await get<{ items: { name: string; carrier_ids: number[]; routing_plan_id: number | null }[] }>(
        '/api/product/list?per_page=100',
        alpha,
      ),
    ).items;
    expect(forAlpha.map((p) => p.name)).toEqual(['Agents Public', 'Alpha Private']);
    // not who else has it, nor how it is routed
    expect(forAlpha.map((p) => [p.carrier_ids, p.routing_plan_id])).toEqual([
      [[], null],
      [[], null],
    ]);
    expect(ok(await get<{ name: string }>(`/api/portal/rate_tables/${tables.none}/rates`, alpha)).name).toBe(
      'Unsold AZ',
    );
    ok(await get(`/api/portal/rate_tables/${tables.pub}/rates`, alpha));
    notVisible(await get(`/api/portal/rate_tables/${tables.mine}/rates`, alpha));
    notVisible(await get(`/api/portal/rate_tables/${tables.none}/rates`, carrierTokens.Bravo!));
    denied(await get(`/api/portal/rate_tables/${tables.pub}/rates`, admin));
    // The product writes stay admin-only.
    denied(
      await h.call('POST', '/api/product/create', {
        token: weeklyToken,
        body: { name: 'X', rate_table_id: tables.pub, routing_plan_id: plan },
      }),
    );
  });
});
