import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  denied,
  expectSessionRequired,
  invalid,
  makeAgent,
  makeCarrierUser,
  makeRestrictedAdmin,
  makeSessionStates,
  ok,
  startHarness,
  USER_PASSWD,
  type Harness,
  type SessionStates,
} from './harness';

type Paged<T> = { items: T[]; total: number };
type Invoice = {
  invoice_id: number;
  invoice_number: string;
  invoice_date: string;
  period_start: string;
  amount: string;
  paid_amount: string;
  due_date: string;
  status: string;
  paid: boolean;
};

let h: Harness;
let admin: string;
let states: SessionStates;
let acme: { clientId: number; token: string; login: string };
let globex: { clientId: number; token: string; login: string };
let agent: { agentId: number; token: string };
let otherAgent: { agentId: number; token: string };
let restricted: { token: string };

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  states = await makeSessionStates(h);
  acme = await makeCarrierUser(h, admin, 'Acme');
  globex = await makeCarrierUser(h, admin, 'Globex', { client_type: 'vendor', company_type: 'origination' });
  agent = await makeAgent(h, admin, 'Broker');
  otherAgent = await makeAgent(h, admin, 'Rival');
  restricted = await makeRestrictedAdmin(h, admin, 'no_dashboard', { '/log/import_log': 'r' });

  const db = h.built.services.db;
  await db
    .updateTable('carriers')
    .set({ balance: '1234.5', credit_limit: '500', mode: 'postpaid' })
    .where('client_id', '=', acme.clientId)
    .execute();
  await db
    .updateTable('carriers')
    .set({ balance: '-20.125' })
    .where('client_id', '=', globex.clientId)
    .execute();
  const t0 = Date.now();
  await db
    .insertInto('client_messages')
    .values([
      {
        client_id: acme.clientId,
        type: 'notice',
        subject: 'Maintenance',
        content: 'Sunday 02:00',
        created_at: new Date(t0 - 2000),
      },
      {
        client_id: acme.clientId,
        type: 'rate',
        subject: 'New rates',
        content: 'From Monday',
        created_at: new Date(t0 - 1000),
      },
      { client_id: globex.clientId, type: 'notice', subject: 'Globex only', content: '' },
    ])
    .execute();
  await db
    .insertInto('client_alerts')
    .values([
      { client_id: acme.clientId, level: 'critical', content: 'Balance below zero soon' },
      { client_id: globex.clientId, content: 'Globex alert', status: 'read' },
    ])
    .execute();
  const inv = (
    client_id: number,
    n: string,
    amount: string,
    paid_amount: string,
    status: 'normal' | 'voided' = 'normal',
    due = '2026-02-15',
  ) => ({
    client_id,
    invoice_number: n,
    invoice_date: '2026-02-01',
    period_start: '2026-01-01T00:00:00Z',
    period_end: '2026-02-01T00:00:00Z',
    amount,
    paid_amount,
    due_date: due,
    status,
  });
  await db
    .insertInto('invoices')
    .values([
      inv(acme.clientId, 'A-001', '100.50', '0', 'normal', '2026-02-10'),
      inv(acme.clientId, 'A-002', '200', '200'),
      inv(acme.clientId, 'A-003', '300', '120.25', 'normal', '2026-03-01'),
      inv(acme.clientId, 'A-004', '50', '0', 'voided'),
      inv(globex.clientId, 'G-001', '999', '0'),
    ])
    .execute();
});
afterAll(() => h.close());

describe('GET /home/client', () => {
  it("answers the carrier's balance, credit, mode and the user's notification flags", async () => {
    ok(
      await h.call('PATCH', '/api/user', {
        token: acme.token,
        body: { is_daily_balance_notification: true, zero_balance_notice: true },
      }),
    );
    const p = ok(await h.call<Record<string, unknown>>('GET', '/api/home/client', { token: acme.token }));
    expect(p).toEqual({
      client_id: acme.clientId,
      name: 'Acme',
      balance: '1234.500000',
      currency: 'USD',
      credit_limit: '500.000000',
      mode: 'postpaid',
      allowed_credit: '0.000000',
      unlimited_credit: false,
      available: '1734.500000',
      is_show_daily_usage: false,
      is_daily_balance_notification: true,
      zero_balance_notice: true,
    });
  });

  it('answers a vendor its own figures, whatever id it sends', async () => {
    const p = ok(
      await h.call<{ client_id: number; balance: string }>(
        'GET',
        `/api/home/client?client_id=${acme.clientId}`,
        { token: globex.token },
      ),
    );
    expect(p).toMatchObject({ client_id: globex.clientId, balance: '-20.125000' });
  });

  it('gives a prepaid carrier the figures of its mode: balance, allowed credit and what is available', async () => {
    await h.built.services.db
      .updateTable('carriers')
      .set({ mode: 'prepaid', allowed_credit: '25', test_credit: '5' })
      .where('client_id', '=', globex.clientId)
      .execute();
    const p = ok(await h.call<Record<string, unknown>>('GET', '/api/home/client', { token: globex.token }));
    expect(p).toMatchObject({ mode: 'prepaid', allowed_credit: '30.000000', available: '9.875000' });
  });

  it('is refused to admins and agents', async () => {
    denied(await h.call('GET', '/api/home/client', { token: admin }));
    denied(await h.call('GET', '/api/home/client', { token: agent.token }));
    await expectSessionRequired(h, states, 'GET', '/api/home/client');
  });
});

describe('GET /home/client/message/list and /home/client/alert/list', () => {
  it("answers the carrier's own messages newest first, filtered by type", async () => {
    const p = ok(
      await h.call<Paged<{ subject: string; type: string; is_read: boolean }>>(
        'GET',
        '/api/home/client/message/list?page=0&per_page=9999',
        { token: acme.token },
      ),
    );
    expect(p.items.map((m) => m.subject)).toEqual(['New rates', 'Maintenance']);
    expect(p.total).toBe(2);
    expect(p.items[0]).toMatchObject({ type: 'rate', content: 'From Monday', is_read: false });
    const rates = ok(
      await h.call<Paged<{ subject: string }>>('GET', '/api/home/client/message/list?type=rate', {
        token: acme.token,
      }),
    );
    expect(rates.items.map((m) => m.subject)).toEqual(['New rates']);
    const g = ok(
      await h.call<Paged<{ subject: string }>>(
        'GET',
        `/api/home/client/message/list?client_id=${acme.clientId}`,
        { token: globex.token },
      ),
    );
    expect(g.items.map((m) => m.subject)).toEqual(['Globex only']);
  });

  it("answers the carrier's own alerts", async () => {
    const p = ok(
      await h.call<Paged<{ level: string; content: string; status: string }>>(
        'GET',
        '/api/home/client/alert/list?page=0&per_page=9999',
        { token: acme.token },
      ),
    );
    expect(p.items).toEqual([
      expect.objectContaining({ level: 'critical', content: 'Balance below zero soon', status: 'new' }),
    ]);
    const g = ok(
      await h.call<Paged<{ content: string }>>('GET', '/api/home/client/alert/list', { token: globex.token }),
    );
    expect(g.items.map((a) => a.content)).toEqual(['Globex alert']);
  });

  it('answers an empty list to a carrier without any', async () => {
    const fresh = await makeCarrierUser(h, admin, 'Initech');
    expect(ok(await h.call('GET', '/api/home/client/message/list', { token: fresh.token }))).toEqual({
      items: [],
      total: 0,
    });
    expect(ok(await h.call('GET', '/api/home/client/alert/list', { token: fresh.token }))).toEqual({
      items: [],
      total: 0,
    });
    expect(
      ok(await h.call('GET', '/api/home/client/invoice/list?paid=false', { token: fresh.token })),
    ).toEqual({ items: [], total: 0 });
  });

  it('are refused to admins and agents, and validate the query', async () => {
    for (const url of ['/api/home/client/message/list', '/api/home/client/alert/list']) {
      denied(await h.call('GET', url, { token: admin }));
      denied(await h.call('GET', url, { token: agent.token }));
      invalid(await h.call('GET', `${url}?per_page=0`, { token: acme.token }), 'per_page');
      await expectSessionRequired(h, states, 'GET', url);
    }
  });
});

describe('GET /home/client/invoice/list', () => {
  it('answers the unpaid invoices with exact amounts (voided ones never)', async () => {
    const p = ok(
      await h.call<Paged<Invoice>>('GET', '/api/home/client/invoice/list?paid=false', { token: acme.token }),
    );
    expect(p.items.map((i) => [i.invoice_number, i.amount, i.paid_amount, i.paid])).toEqual([
      ['A-001', '100.500000', '0.000000', false],
      ['A-003', '300.000000', '120.250000', false],
    ]);
    expect(p.total).toBe(2);
    expect(p.items[0]).toMatchObject({
      invoice_date: '2026-02-01',
      due_date: '2026-02-10',
      status: 'normal',
    });
    expect(Date.parse(p.items[0]!.period_start)).toBe(Date.parse('2026-01-01T00:00:00Z'));
    const paid = ok(
      await h.call<Paged<Invoice>>('GET', '/api/home/client/invoice/list?paid=true', { token: acme.token }),
    );
    expect(paid.items.map((i) => [i.invoice_number, i.paid])).toEqual([['A-002', true]]);
    const all = ok(
      await h.call<Paged<Invoice>>('GET', '/api/home/client/invoice/list', { token: acme.token }),
    );
    expect(all.items.map((i) => i.invoice_number).sort()).toEqual(['A-001', 'A-002', 'A-003']);
  });

  it("never answers another carrier's invoices", async () => {
    const g = ok(
      await h.call<Paged<Invoice>>(
        'GET',
        `/api/home/client/invoice/list?paid=false&client_id=${acme.clientId}`,
        { token: globex.token },
      ),
    );
    expect(g.items.map((i) => i.invoice_number)).toEqual(['G-001']);
  });

  it('validates the query and refuses admins and agents', async () => {
    invalid(await h.call('GET', '/api/home/client/invoice/list?paid=perhaps', { token: acme.token }), 'paid');
    denied(await h.call('GET', '/api/home/client/invoice/list?paid=false', { token: admin }));
    denied(await h.call('GET', '/api/home/client/invoice/list?paid=false', { token: agent.token }));
    await expectSessionRequired(h, states, 'GET', '/api/home/client/invoice/list?paid=false');
  });
});

describe('GET /home/agent/client_balances', () => {
  it("answers the balances of the agent's own carriers only", async () => {
    for (const [name, agentId] of [
      ['Alpha Tel', agent.agentId],
      ['Beta Voice', agent.agentId],
      ['Gamma Net', otherAgent.agentId],
    ] as const) {
      ok(
        await h.call('POST', '/api/carrier/basic/create', {
          token: admin,
          body: {
            name,
            company: `${name} Inc`,
            email: `${name.replace(' ', '').toLowerCase()}@example.com`,
            login_name: name.replace(' ', '_').toLowerCase(),
            passwd: USER_PASSWD,
            agent_id: agentId,
          },
        }),
      );
    }
    await h.built.services.db
      .updateTable('carriers')
      .set({ balance: '42.42' })
      .where('name', '=', 'Beta Voice')
      .execute();
    const p = ok(
      await h.call<Paged<{ name: string; balance: string; currency: string; is_active: boolean }>>(
        'GET',
        '/api/home/agent/client_balances',
        { token: agent.token },
      ),
    );
    expect(p.items.map((c) => [c.name, c.balance, c.currency, c.is_active])).toEqual([
      ['Alpha Tel', '0.000000', 'USD', true],
      ['Beta Voice', '42.420000', 'USD', true],
    ]);
    expect(p.total).toBe(2);
    const rival = ok(
      await h.call<Paged<{ name: string }>>(
        'GET',
        `/api/home/agent/client_balances?agent_id=${agent.agentId}`,
        { token: otherAgent.token },
      ),
    );
    expect(rival.items.map((c) => c.name)).toEqual(['Gamma Net']);
  });

  it('is refused to carriers and admins', async () => {
    denied(await h.call('GET', '/api/home/agent/client_balances', { token: acme.token }));
    denied(await h.call('GET', '/api/home/agent/client_balances', { token: admin }));
    await expectSessionRequired(h, states, 'GET', '/api/home/agent/client_balances');
  });
});

describe('GET /home/admin', () => {
  it('answers the counts of the admin home', async () => {
    const p = ok(await h.call<Record<string, unknown>>('GET', '/api/home/admin', { token: admin }));
    const db = h.built.services.db;
    const users = (await db.selectFrom('users').select('user_id').execute()).length;
    expect(p).toMatchObject({
      users,
      clients: 5,
      vendors: 1,
      agents: 2,
      waiting_tickets: 0,
      failed_signins_today: 0,
    });
    expect(p.signins_today).toBeGreaterThanOrEqual(7);
    expect(Number(p.total_balance)).toBeCloseTo(1234.5 + 42.42, 6);
  });

  it('is refused to portal users and admins without the dashboard permission', async () => {
    denied(await h.call('GET', '/api/home/admin', { token: restricted.token }));
    denied(await h.call('GET', '/api/home/admin', { token: acme.token }));
    denied(await h.call('GET', '/api/home/admin', { token: agent.token }));
    await expectSessionRequired(h, states, 'GET', '/api/home/admin');
  });
});
