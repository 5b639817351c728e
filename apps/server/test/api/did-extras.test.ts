import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  denied,
  fails,
  invalid,
  makeCarrierUser,
  makeRestrictedAdmin,
  notVisible,
  ok,
  startHarness,
  type Harness,
} from './harness';
import { rebuildAfter, switchKey } from './routing-fixtures';
import { sendCdrs } from './cdr-fixtures';

/**
 * The rest of origination (issue 14, docs/did.md): the DID dashboard, the ledger, regenerate
 * balance and invoices over DID carriers only, port-in requests (portal and operator, tenancy) and
 * the portal's DID trunks.
 */
let h: Harness;
let admin: string;
let key: string;
let rule: number;
let vendor: number;
let client: number;
let clientToken: string;
let other: number;
let otherToken: string;
let term: { clientId: number; token: string };

const db = () => h.built.services.db;
const post = <T>(path: string, body: unknown, token = admin, lang?: string) =>
  h.call<T>('POST', path, { token, body, headers: lang ? { 'x-lang': lang } : undefined });
const get = <T>(path: string, token = admin) => h.call<T>('GET', path, { token });
type Paged<T> = { items: T[]; total: number };
const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
const balanceOf = async (id: number) =>
  (await db().selectFrom('carriers').select('balance').where('client_id', '=', id).executeTakeFirstOrThrow())
    .balance;

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  rule = ok(
    await post<{ object_id: number }>('/api/did/billing_rule/create', {
      name: 'Standard',
      monthly_price: '3',
      per_minute: '0.012',
      setup_fee: '1.5',
    }),
  ).object_id;
  const cost = ok(
    await post<{ object_id: number }>('/api/did/billing_rule/create', {
      name: 'Vendor cost',
      monthly_price: '0.5',
      per_minute: '0.004',
    }),
  ).object_id;
  vendor = ok(
    await post<{ object_id: number }>('/api/did/vendor/create', {
      name: 'NumberCo',
      hosts: ['203.0.113.10'],
      billing_rule_id: cost,
    }),
  ).object_id;
  const mk = async (name: string, ip: string, username: string) =>
    ok(
      await post<{ object_id: number }>('/api/did/client/create', {
        name,
        hosts: [ip],
        billing_rule_id: rule,
        mode: 'postpaid',
        credit_limit: '100',
        username,
        password: 'Client#2026',
      }),
    ).object_id;
  client = await mk('CallCenter', '198.51.100.50', 'callcenter');
  other = await mk('Hotel', '198.51.100.60', 'hotel');
  clientToken = await h.signIn('callcenter', 'Client#2026');
  otherToken = await h.signIn('hotel', 'Client#2026');
  term = await makeCarrierUser(h, admin, 'Termo');

  ok(
    await post('/api/did/import', {
      vendor_id: vendor,
      method: 'range',
      start: '4930100000',
      count: 10,
      billing_rule_id: cost,
    }),
  );
  const ids = (await db().selectFrom('dids').select('did_id').orderBy('number').execute()).map(
    (d) => d.did_id,
  );
  ok(await post('/api/did/repository/assign', { did_ids: ids.slice(0, 3), client_id: client }));
  ok(await post('/api/did/repository/reserve', { did_ids: [ids[3]], client_id: other }));

  // one DID call half an hour ago: 2 minutes, 0.024 for the client, 0.008 from the vendor
  const trunkOf = async (table: 'did_vendors' | 'did_clients', id: number) =>
    (await db().selectFrom(table).select('trunk_id').where('carrier_id', '=', id).executeTakeFirstOrThrow())
      .trunk_id;
  const start = Date.now() - 30 * 60_000;
  // calls are rated with the routing snapshot (docs/did.md "Rating DID calls"): rebuilt first
  await rebuildAfter(h, admin);
  ok(
    await sendCdrs(h, key, 'did-extras-1', [
      {
        call_id: 'did-extras-call-1',
        attempt: 1,
        is_final_attempt: true,
        start_time: new Date(start).toISOString(),
        answer_time: new Date(start + 2000).toISOString(),
        end_time: new Date(start + 2000 + 120_000).toISOString(),
        duration: 120,
        ingress_trunk_id: await trunkOf('did_vendors', vendor),
        egress_trunk_id: await trunkOf('did_clients', client),
        source_ip: '203.0.113.10',
        ani: '15550001111',
        dnis: '4930100000',
        egress_dnis: '4930100000',
        release_cause: 200,
        release_side: 'O',
        pdd_ms: 900,
      },
    ]),
  );
  // the termination carrier has a ledger of its own (a payment)
  ok(await post('/api/finance/payment/create', { client_id: term.clientId, amount: '50' }));
});
afterAll(() => h.close());

type Dash = {
  totals: { attempts: number; answered: number; duration: number; revenue: string; cost: string | null };
  numbers: Record<string, number>;
  money: Record<string, string | null>;
  series: { attempts: number }[];
  step_minutes: number;
  top_clients: { customer_id: number; customer: string; attempts: number }[];
  top_vendors: { vendor_id: number; vendor: string }[];
};

describe('GET /did/dashboard', () => {
  it('shows numbers by state, the DID calls and their money with the recurring charges', async () => {
    const d = ok(await get<Dash>('/api/did/dashboard?range=last_24h'));
    expect(d.numbers).toEqual({
      total: 10,
      assigned: 3,
      unassigned: 6,
      reserved: 1,
      released: 0,
      suspended: 0,
    });
    expect(d.totals).toMatchObject({ attempts: 1, answered: 1, duration: 120, revenue: '0.024000' });
    expect(d.totals.cost).toBe('0.008000');
    expect(d.step_minutes).toBe(15);
    expect(d.series.reduce((a, p) => a + p.attempts, 0)).toBe(1);
    expect(d.top_clients).toEqual([expect.objectContaining({ customer_id: client, customer: 'CallCenter' })]);
    expect(d.top_vendors).toEqual([expect.objectContaining({ vendor_id: vendor, vendor: 'NumberCo' })]);
    // the ledger's DID charges of the range: the client's setup fees and prorated month, the vendor's import
    const charges = await db()
      .selectFrom('ledger')
      .select(['side', 'amount'])
      .where('kind', '=', 'did_charge')
      .execute();
    const sum = (side: string) =>
      charges.filter((c) => c.side === side).reduce((a, c) => a + Number(c.amount), 0);
    expect(Number(d.money.charges_revenue)).toBeCloseTo(-sum('customer'), 6);
    expect(Number(d.money.charges_cost)).toBeCloseTo(sum('vendor'), 6);
    expect(Number(d.money.charges_revenue)).toBeGreaterThan(4.5);
    expect(Number(d.money.revenue)).toBeCloseTo(0.024 + Number(d.money.charges_revenue), 6);
    expect(Number(d.money.profit)).toBeCloseTo(Number(d.money.revenue) - Number(d.money.cost), 6);
    expect(d.money.usage_revenue).toBe('0.024000');
  });

  it('is read on /origination/dashboard; cost and profit need "view cost and rate in reports"', async () => {
    const none = await makeRestrictedAdmin(h, admin, 'nodash', { '/statistics/dashboard': 'r' });
    denied(await get('/api/did/dashboard', none.token));
    const reader = await makeRestrictedAdmin(h, admin, 'didash', {
      '/origination/dashboard': 'r',
      'statistics:view_all_carriers': 'r',
    });
    const d = ok(await get<Dash>('/api/did/dashboard?range=last_24h', reader.token));
    expect(d.totals.attempts).toBe(1);
    // without "View All Carriers" only the carriers the user looks after count (none here)
    const mine = await makeRestrictedAdmin(h, admin, 'didashmine', { '/origination/dashboard': 'r' });
    expect(ok(await get<Dash>('/api/did/dashboard?range=last_24h', mine.token)).totals.attempts).toBe(0);
    expect(d.money).toMatchObject({ cost: null, profit: null, usage_cost: null, charges_cost: null });
    expect(d.totals.cost).toBeNull();
    denied(await get('/api/did/dashboard', clientToken));
    invalid(await get('/api/did/dashboard?range=forever'), 'range');
  });
});

describe('Origination > Actual Transaction and Regenerate Balance', () => {
  it('lists the ledger of DID carriers only, whatever carrier is asked', async () => {
    const all = ok(await get<Paged<{ client_id: number }>>('/api/did/actual_transaction/list?per_page=100'));
    expect(all.total).toBeGreaterThan(0);
    const ids = new Set(all.items.map((r) => r.client_id));
    expect(ids.has(client)).toBe(true);
    expect(ids.has(vendor)).toBe(true);
    expect(ids.has(term.clientId)).toBe(false);
    // the finance ledger has the termination carrier's payment
    const fin = ok(
      await get<Paged<unknown>>(`/api/finance/actual_transaction/list?client_id=${term.clientId}`),
    );
    expect(fin.total).toBe(1);
    const asked = ok(
      await get<Paged<unknown>>(`/api/did/actual_transaction/list?client_id=${term.clientId}`),
    );
    expect(asked.total).toBe(0);
    // own permission: the finance one does not open it, nor the other way round
    const finOnly = await makeRestrictedAdmin(h, admin, 'finledger', { '/finance/actual_transaction': 'r' });
    denied(await get('/api/did/actual_transaction/list', finOnly.token));
    const didOnly = await makeRestrictedAdmin(h, admin, 'didledger', {
      '/origination/actual_transaction': 'r',
    });
    ok(await get('/api/did/actual_transaction/list', didOnly.token));
    denied(await get('/api/finance/actual_transaction/list', didOnly.token));
    denied(await get('/api/did/actual_transaction/list', clientToken));
  });

  it('checks and regenerates DID carriers only', async () => {
    await db()
      .updateTable('carriers')
      .set({ balance: '7' })
      .where('client_id', 'in', [other, term.clientId])
      .execute();
    type Check = { client_id: number; difference: string };
    const list = ok(await get<Paged<Check>>('/api/did/regenerate_balance/list?mismatched_only=true'));
    expect(list.items.map((r) => r.client_id)).toEqual([other]);
    // a termination carrier named is left alone
    expect(
      ok(
        await post<{ regenerated: Check[] }>('/api/did/regenerate_balance/regenerate', {
          client_ids: [term.clientId],
        }),
      ).regenerated,
    ).toEqual([]);
    expect(Number(await balanceOf(term.clientId))).toBe(7);
    const r = ok(await post<{ regenerated: Check[] }>('/api/did/regenerate_balance/regenerate', {}));
    expect(r.regenerated.map((x) => x.client_id)).toEqual([other]);
    expect(Number(await balanceOf(other))).toBe(0);
    expect(Number(await balanceOf(term.clientId))).toBe(7);
    expect(ok(await get<Paged<Check>>('/api/did/regenerate_balance/list?mismatched_only=true')).total).toBe(
      0,
    );
    // the finance screen still sees the termination carrier's difference, and sets it right
    expect(
      ok(await get<Paged<Check>>('/api/finance/regenerate_balance/list?mismatched_only=true')).items.map(
        (x) => x.client_id,
      ),
    ).toEqual([term.clientId]);
    ok(await post('/api/finance/regenerate_balance/regenerate', { client_ids: [term.clientId] }));
    const reader = await makeRestrictedAdmin(h, admin, 'didregen', {
      '/origination/regenerate_balance': 'r',
    });
    ok(await get('/api/did/regenerate_balance/list', reader.token));
    denied(await post('/api/did/regenerate_balance/regenerate', {}, reader.token));
  });
});

describe('Origination > DID Invoice', () => {
  type Inv = {
    amount: string;
    usage_exact: string;
    calls: number;
    lines: { recurring: { key: string; amount: string }[] };
  };
  it("makes a DID client's invoice with its recurring DID charges and DID usage", async () => {
    const made = ok(
      await post<{ invoice_id: number; invoice_number: string }>('/api/did/invoice/create', {
        client_id: client,
        date_from: day(-1),
        date_to: day(1),
      }),
    );
    const inv = ok(await get<Inv>(`/api/finance/invoice/${made.invoice_id}`));
    expect(inv.calls).toBe(1);
    expect(inv.usage_exact).toBe('0.024000');
    const booked = await db()
      .selectFrom('ledger')
      .select('amount')
      .where('client_id', '=', client)
      .where('kind', '=', 'did_charge')
      .execute();
    const recurring = -booked.reduce((a, r) => a + Number(r.amount), 0);
    expect(inv.lines.recurring.reduce((a, l) => a + Number(l.amount), 0)).toBeCloseTo(recurring, 6);
    expect(inv.lines.recurring.map((l) => l.key)).toEqual(
      expect.arrayContaining(['DID setup fees', 'DID monthly fees']),
    );
    expect(Number(inv.amount)).toBeCloseTo(0.024 + recurring, 2);
    const pdf = await h.built.app.inject({
      method: 'GET',
      url: `/api/did/invoice/${made.invoice_id}/pdf`,
      headers: { 'x-auth-token': admin },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/pdf/);
  });

  it('lists and makes invoices of DID carriers only', async () => {
    const termInv = ok(
      await post<{ invoice_id: number }>('/api/finance/invoice/create', {
        client_id: term.clientId,
        date_from: day(-1),
        date_to: day(1),
      }),
    );
    const list = ok(await get<Paged<{ client_id: number }>>('/api/did/invoice/list'));
    expect(list.items.map((r) => r.client_id)).toEqual([client]);
    expect(ok(await get<Paged<unknown>>(`/api/did/invoice/list?client_id=${term.clientId}`)).total).toBe(0);
    notVisible(
      await post('/api/did/invoice/create', { client_id: term.clientId, date_from: day(2), date_to: day(3) }),
    );
    const pdf = await h.built.app.inject({
      method: 'GET',
      url: `/api/did/invoice/${termInv.invoice_id}/pdf`,
      headers: { 'x-auth-token': admin },
    });
    expect(pdf.statusCode).toBe(404);
    invalid(
      await post('/api/did/invoice/create', { client_id: client, date_from: day(3), date_to: day(2) }),
      'date_to',
    );
    // the same overlap rule as every invoice
    fails(
      await post('/api/did/invoice/create', { client_id: client, date_from: day(0), date_to: day(0) }),
      170,
    );
    const reader = await makeRestrictedAdmin(h, admin, 'didinv', { '/origination/did_invoice': 'r' });
    ok(await get('/api/did/invoice/list', reader.token));
    denied(await get('/api/finance/invoice/list', reader.token));
    denied(
      await post(
        '/api/did/invoice/create',
        { client_id: other, date_from: day(0), date_to: day(0) },
        reader.token,
      ),
    );
    denied(await get('/api/did/invoice/list', clientToken));
  });
});

type Port = {
  id: number;
  client_id: number;
  numbers: string[];
  current_provider: string;
  requested_date: string;
  status: string;
  operator_note: string;
};

describe('port-in requests', () => {
  let id: number;
  it('validates the request with messages in each language', async () => {
    const url = '/api/did/portal/port_request/create';
    const body = { numbers: '4940111111\n4940111112', current_provider: 'OldTel', requested_date: day(5) };
    expect(invalid(await post(url, { ...body, numbers: '' }, clientToken), 'numbers')).toBe(
      'The DID field cannot be empty',
    );
    expect(invalid(await post(url, { ...body, numbers: '4940111111\nabc' }, clientToken), 'numbers')).toBe(
      'DID is not valid: line 2 (abc)',
    );
    expect(invalid(await post(url, { ...body, numbers: 'abc' }, clientToken, 'de'), 'numbers')).toBe(
      'DID ist ungültig: Zeile 1 (abc)',
    );
    expect(invalid(await post(url, { ...body, numbers: 'abc' }, clientToken, 'ch'), 'numbers')).toBe(
      'DID 无效：第 1 行（abc）',
    );
    const many = Array.from({ length: 1001 }, (_, i) => String(4940200000 + i)).join('\n');
    expect(invalid(await post(url, { ...body, numbers: many }, clientToken), 'numbers')).toBe(
      'Maximum 1000 numbers',
    );
    invalid(await post(url, { ...body, current_provider: ' ' }, clientToken), 'current_provider', /required/);
    expect(
      invalid(await post(url, { ...body, requested_date: day(-2) }, clientToken), 'requested_date'),
    ).toMatch(/cannot be before today/);
    expect(
      invalid(await post(url, { ...body, requested_date: day(-2) }, clientToken, 'de'), 'requested_date'),
    ).toMatch(/darf nicht vor heute/);
    invalid(await post(url, { ...body, requested_date: '2026-02-30' }, clientToken), 'requested_date');
    expect(invalid(await post(url, { ...body, numbers: '4930100005' }, clientToken), 'numbers')).toBe(
      'DID 4930100005 is already a number of this platform: there is nothing to port in',
    );
    invalid(await post(url, { ...body, client_id: other }, clientToken), '_');
    expect(await db().selectFrom('did_port_requests').select('id').execute()).toEqual([]);
  });

  it('lets a client ask and see only its own requests, whatever ids it sends', async () => {
    id = ok(
      await post<{ id: number }>(
        '/api/did/portal/port_request/create',
        {
          numbers: '+4940111111\n4940111112\n4940111111',
          current_provider: 'OldTel',
          requested_date: day(5),
          note: 'Main office numbers',
        },
        clientToken,
      ),
    ).id;
    const mine = ok(await get<Paged<Port>>('/api/did/portal/port_request/list', clientToken));
    expect(mine.items).toEqual([
      expect.objectContaining({
        id,
        client_id: client,
        numbers: ['4940111111', '4940111112'],
        current_provider: 'OldTel',
        requested_date: day(5),
        status: 'requested',
      }),
    ]);
    expect(ok(await get<Paged<Port>>('/api/did/portal/port_request/list', otherToken)).total).toBe(0);
    notVisible(await get(`/api/did/portal/port_request/${id}`, otherToken));
    ok(await get(`/api/did/portal/port_request/${id}`, clientToken));
    // a termination client has no DID pages; the operator's calls are not the portal's
    fails(await get('/api/did/portal/port_request/list', term.token), 140, /origination clients/);
    fails(await post('/api/did/portal/port_request/create', {}, term.token), 110);
    denied(await get('/api/did/port_request/list', clientToken));
    denied(await post(`/api/did/port_request/${id}/status`, { status: 'completed' }, clientToken));
  });

  it('is moved by the operator through its states, the client reading each', async () => {
    const list = ok(await get<Paged<Port>>('/api/did/port_request/list?status=requested'));
    expect(list.items.map((r) => r.id)).toEqual([id]);
    ok(await post(`/api/did/port_request/${id}/status`, { status: 'in_progress', note: 'Sent to OldTel' }));
    ok(await post(`/api/did/port_request/${id}/status`, { status: 'completed', note: 'Ported' }));
    const moved = ok(
      await get<{ request: Port; history: { status: string; note: string }[] }>(
        `/api/did/portal/port_request/${id}`,
        clientToken,
      ),
    );
    expect(moved.request).toMatchObject({ status: 'completed', operator_note: 'Ported' });
    expect(moved.history.map((x) => x.status)).toEqual(['completed', 'in_progress', 'requested']);
    // completed and rejected are final
    fails(
      await post(`/api/did/port_request/${id}/status`, { status: 'rejected' }),
      170,
      'A port-in request that is completed cannot be moved to rejected',
    );
    fails(
      await post(`/api/did/port_request/${id}/status`, { status: 'rejected' }, admin, 'de'),
      170,
      /kann nicht auf rejected gesetzt werden/,
    );
    invalid(await post(`/api/did/port_request/${id}/status`, { status: 'lost' }), 'status');
    notVisible(await post('/api/did/port_request/999999/status', { status: 'rejected' }));
    const alerts = await db()
      .selectFrom('client_alerts')
      .select('content')
      .where('client_id', '=', client)
      .execute();
    expect(alerts.map((a) => a.content).join('\n')).toMatch(/Port-in request #\d+ .*completed \(Ported\)/);
    const reader = await makeRestrictedAdmin(h, admin, 'portreader', { '/origination/port_requests': 'r' });
    ok(await get('/api/did/port_request/list', reader.token));
    denied(await post(`/api/did/port_request/${id}/status`, { status: 'rejected' }, reader.token));
  });
});

describe('GET /did/portal/trunks', () => {
  it("shows a DID client its own trunk and authorization, and nobody else's", async () => {
    type Trunk = { trunk_id: number; name: string; direction: string; hosts: string[]; did_count: number };
    const mine = ok(await get<{ items: Trunk[] }>('/api/did/portal/trunks', clientToken));
    expect(mine.items).toEqual([
      expect.objectContaining({
        name: 'CallCenter DID',
        direction: 'egress',
        hosts: ['198.51.100.50'],
        did_count: 3,
      }),
    ]);
    const theirs = ok(await get<{ items: Trunk[] }>('/api/did/portal/trunks', otherToken));
    expect(theirs.items.map((t) => t.name)).toEqual(['Hotel DID']);
    fails(await get('/api/did/portal/trunks', term.token), 140);
    fails(await get('/api/did/portal/trunks', admin), 140);
  });
});
