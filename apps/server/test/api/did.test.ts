import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fails, invalid, makeRestrictedAdmin, ok, startHarness, upload, type Harness } from './harness';
import { carrier, rebuildAfter, switchKey, switchRoute, trunk } from './routing-fixtures';
import { sendCdrs } from './cdr-fixtures';
import { runDidCharges } from '../../src/modules/did/charges';
import { assign, release } from '../../src/modules/did/service';

let h: Harness;
let admin: string;
let key: string;
let rule: number;
let cheap: number;
let vendor: number;
let client: number;
let clientToken: string;

const db = () => h.built.services.db;
const post = <T>(path: string, body: unknown, token = admin) => h.call<T>('POST', path, { token, body });
const get = <T>(path: string, token = admin) => h.call<T>('GET', path, { token });
type Paged<T> = { items: T[]; total: number };
type Did = { did_id: number; number: string; state: string; client_id: number | null };

const didOf = async (number: string) =>
  db().selectFrom('dids').selectAll().where('number', '=', number).executeTakeFirstOrThrow();
const ledgerOf = (id: number) =>
  db()
    .selectFrom('ledger')
    .select(['kind', 'side', 'ref', 'amount'])
    .where('client_id', '=', id)
    .where('kind', '=', 'did_charge')
    .orderBy('ledger_id')
    .execute();
async function importDone(taskId: number) {
  for (let i = 0; i < 1200; i++) {
    const t = await db()
      .selectFrom('did_upload_tasks')
      .select(['status', 'done', 'inserted', 'updated', 'ignored', 'error'])
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    if (t.status === 'finished' || t.status === 'failed') return t;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`DID import ${taskId} did not finish`);
}
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
      monthly_price: '3.10',
      per_minute: '0.012',
      per_channel: '2',
      setup_fee: '1.5',
    }),
  ).object_id;
  cheap = ok(
    await post<{ object_id: number }>('/api/did/billing_rule/create', {
      name: 'Vendor cost',
      monthly_price: '0.62',
      per_minute: '0.004',
    }),
  ).object_id;
  vendor = ok(
    await post<{ object_id: number }>('/api/did/vendor/create', {
      name: 'NumberCo',
      hosts: ['203.0.113.10'],
      billing_rule_id: cheap,
      decimal_places: 4,
    }),
  ).object_id;
  client = ok(
    await post<{ object_id: number }>('/api/did/client/create', {
      name: 'CallCenter',
      main_email: 'cc@example.com',
      hosts: ['198.51.100.50'],
      billing_rule_id: rule,
      mode: 'postpaid',
      credit_limit: '100',
      username: 'callcenter',
      password: 'Client#2026',
    }),
  ).object_id;
  clientToken = await h.signIn('callcenter', 'Client#2026');
});
afterAll(() => h.close());

describe('DID billing rules', () => {
  it('validates amounts and refuses deleting a rule DIDs use with the spec message', async () => {
    invalid(await post('/api/did/billing_rule/create', { name: 'Bad', per_minute: '-1' }), 'per_minute');
    fails(await post('/api/did/billing_rule/create', { name: 'standard' }), 160, /already exists/);
    ok(await post('/api/did/import', { vendor_id: vendor, method: 'list', numbers: '4420790000' }));
    const r = await h.call('DELETE', `/api/did/billing_rule/${cheap}`, { token: admin });
    fails(r, 170, 'Cannot delete a DID billing plan that is associated with DIDs');
  });
});

describe('DID import', () => {
  it('refuses the whole list for one bad line, naming it, and stores nothing', async () => {
    const r = await post('/api/did/import', {
      vendor_id: vendor,
      method: 'list',
      numbers: '4420791111\nabc\n4420792222',
    });
    expect(invalid(r, 'numbers')).toBe('DID is not valid: line 2 (abc)');
    expect(
      await db().selectFrom('dids').select('did_id').where('number', '=', '4420791111').execute(),
    ).toEqual([]);
    expect(
      invalid(await post('/api/did/import', { vendor_id: vendor, method: 'list', numbers: '' }), 'numbers'),
    ).toBe('The DID field cannot be empty');
    expect(
      invalid(
        await post('/api/did/import', {
          vendor_id: vendor,
          method: 'list',
          numbers: '4420791111,4420792222',
        }),
        'numbers',
      ),
    ).toMatch(/Only one field for DID import/);
    const many = Array.from({ length: 1001 }, (_, i) => String(4420700000 + i)).join('\n');
    expect(
      invalid(await post('/api/did/import', { vendor_id: vendor, method: 'list', numbers: many }), 'numbers'),
    ).toBe('Maximum 1000 numbers');
    invalid(
      await post('/api/did/import', {
        vendor_id: vendor,
        method: 'list',
        numbers: '4420791111',
        duplicate: 'merge',
      }),
      'duplicate',
    );
  });

  it('adds a range (rule mandatory), then ignores or overwrites duplicates', async () => {
    expect(
      invalid(
        await post('/api/did/import', { vendor_id: vendor, method: 'range', start: '4930100000', count: 10 }),
        'billing_rule_id',
      ),
    ).toBe('Vendor billing rule is mandatory when adding by range');
    expect(
      invalid(
        await post('/api/did/import', {
          vendor_id: vendor,
          method: 'range',
          start: '4930100000',
          count: 5001,
          billing_rule_id: cheap,
        }),
        'count',
      ),
    ).toBe('Maximum 5000 numbers');
    const r = ok(
      await post<{ inserted: number; ignored: number; updated: number }>('/api/did/import', {
        vendor_id: vendor,
        method: 'range',
        start: '4930100000',
        count: 100,
        billing_rule_id: cheap,
      }),
    );
    expect(r).toMatchObject({ inserted: 100, ignored: 0, updated: 0 });
    const again = ok(
      await post<{ inserted: number; ignored: number; updated: number }>('/api/did/import', {
        vendor_id: vendor,
        method: 'list',
        numbers: '4930100000\n4930100001\n4930100100',
      }),
    );
    expect(again).toMatchObject({ inserted: 1, ignored: 2, updated: 0 });
    const over = ok(
      await post<{ inserted: number; ignored: number; updated: number }>('/api/did/import', {
        vendor_id: vendor,
        method: 'list',
        numbers: '4930100000',
        duplicate: 'overwrite',
        billing_rule_id: rule,
      }),
    );
    expect(over).toMatchObject({ inserted: 0, updated: 1 });
    expect((await didOf('4930100000')).vendor_billing_rule_id).toBe(rule);
    const log = ok(
      await get<Paged<{ action: string; inserted: number }>>('/api/did/import_log?action=upload'),
    );
    expect(log.total).toBeGreaterThanOrEqual(4);
    // The vendor's import charges: one ledger row per import, owed to the vendor (positive).
    const rows = await ledgerOf(vendor);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x) => x.side === 'vendor' && Number(x.amount) > 0)).toBe(true);
  });

  it('imports a large CSV file as a durable job, in steps, with its progress in the import log', async () => {
    const numbers = Array.from({ length: 25_000 }, (_, i) => String(3340000000 + i)).join('\n');
    const r = await upload(
      h,
      '/api/did/import/file',
      admin,
      { vendor_id: String(vendor), duplicate: 'ignore' },
      { name: 'big.csv', data: Buffer.from(numbers), type: 'text/csv' },
    );
    const queued = ok(r) as unknown as { task_id: number; job_id: number; total: number };
    expect(queued.total).toBe(25_000);
    const done = await importDone(queued.task_id);
    for (let i = 0; i < 200; i++) {
      const j = await db()
        .selectFrom('jobs')
        .select('status')
        .where('id', '=', queued.job_id)
        .executeTakeFirstOrThrow();
      if (j.status !== 'running' && j.status !== 'pending') break;
      await new Promise((res) => setTimeout(res, 50));
    }
    expect(done).toMatchObject({ status: 'finished', done: 25_000, inserted: 25_000, ignored: 0 });
    const job = await db()
      .selectFrom('jobs')
      .select(['kind', 'status', 'progress_done', 'progress_total'])
      .where('id', '=', queued.job_id)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({
      kind: 'did.import',
      status: 'finished',
      progress_done: 25_000,
      progress_total: 25_000,
    });
    const log = ok(
      await get<Paged<{ id: number; status: string; done: number; job_id: number }>>(
        '/api/did/import_log?action=upload',
      ),
    );
    expect(log.items.find((x) => x.id === queued.task_id)).toMatchObject({
      status: 'finished',
      done: 25_000,
      job_id: queued.job_id,
    });
    // one vendor charge for the whole file
    const charge = await db()
      .selectFrom('ledger')
      .select('ref')
      .where('ref', '=', `did-vendor-import:${queued.task_id}`)
      .execute();
    expect(charge.length).toBe(1);
  });

  it('imports a CSV file, one number per line; other files are refused', async () => {
    const r = await upload(
      h,
      '/api/did/import/file',
      admin,
      { vendor_id: String(vendor), duplicate: 'ignore' },
      {
        name: 'numbers.csv',
        data: Buffer.from('number\n'.slice(7) + '3315550001\n3315550002\n'),
        type: 'text/csv',
      },
    );
    const queued = ok(r) as unknown as { task_id: number; job_id: number; total: number };
    expect(queued).toMatchObject({ total: 2 });
    expect(await importDone(queued.task_id)).toMatchObject({ status: 'finished', inserted: 2, done: 2 });
    const bad = await upload(
      h,
      '/api/did/import/file',
      admin,
      { vendor_id: String(vendor) },
      {
        name: 'numbers.csv',
        data: Buffer.from('3315550003\n33155x\n'),
        type: 'text/csv',
      },
    );
    expect(invalid(bad, 'file')).toBe('DID is not valid: line 2 (33155x)');
    expect(
      await db().selectFrom('dids').select('did_id').where('number', '=', '3315550003').execute(),
    ).toEqual([]);
  });
});

describe('DID states, charges and routing', () => {
  it('assigns with setup fee and the prorated month, keeps history, refuses wrong moves', async () => {
    const d = await didOf('4930100005');
    const before = await balanceOf(client);
    expect(ok(await post('/api/did/repository/assign', { did_ids: [d.did_id], client_id: client }))).toEqual({
      assigned: 1,
    });
    const rows = await ledgerOf(client);
    expect(rows.map((r) => r.ref)).toEqual([
      expect.stringMatching(/^did-setup:/),
      expect.stringMatching(/^did-monthly:/),
    ]);
    expect(Number(rows[0]!.amount)).toBe(-1.5);
    expect(Number(await balanceOf(client))).toBeLessThan(Number(before));
    fails(
      await post('/api/did/repository/assign', { did_ids: [d.did_id], client_id: client }),
      170,
      `DID 4930100005 is assigned and cannot be assigned`,
    );
    fails(
      await post('/api/did/repository/assign', { did_ids: [999999], client_id: client }),
      170,
      'User or DID does not exist',
    );
    invalid(
      await post('/api/did/repository/assign', { did_ids: [d.did_id], client_id: vendor }),
      'client_id',
    );
    const hist = ok(await get<{ items: { action: string }[] }>(`/api/did/repository/${d.did_id}/history`));
    expect(hist.items.map((x) => x.action)).toEqual(['assigned', 'imported']);
  });

  it('routes a call from the DID vendor to the client trunk, refuses other states, and rates the CDR on both sides', async () => {
    await rebuildAfter(h, admin);
    const call = (dnis: string) =>
      switchRoute(h, { source_ip: '203.0.113.10', ani: '15550001111', dnis, call_id: `c-${dnis}` }, key);
    const routed = ok(await call('4930100005'));
    expect(routed.result).toBe('route');
    expect(routed.routes[0]).toMatchObject({ carrier_id: client, dnis: '4930100005', rate: '0.012000' });
    expect(routed.ingress).toMatchObject({ carrier_id: vendor, code: '4930100005' });
    expect(ok(await call('4930100006'))).toMatchObject({ result: 'reject', reject_reason: 'did_unassigned' });
    expect(ok(await call('4999999999'))).toMatchObject({ result: 'reject', reject_reason: 'did_not_found' });
    // the call simulation tells the same
    const d6 = await didOf('4930100006');
    ok(await post('/api/did/repository/reserve', { did_ids: [d6.did_id], client_id: client }));
    await rebuildAfter(h, admin);
    expect(ok(await call('4930100006'))).toMatchObject({ result: 'reject', reject_reason: 'did_reserved' });

    const vendorTrunk = (
      await db()
        .selectFrom('did_vendors')
        .select('trunk_id')
        .where('carrier_id', '=', vendor)
        .executeTakeFirstOrThrow()
    ).trunk_id;
    const clientTrunk = (
      await db()
        .selectFrom('did_clients')
        .select('trunk_id')
        .where('carrier_id', '=', client)
        .executeTakeFirstOrThrow()
    ).trunk_id;
    const start = Date.parse('2026-11-20T10:00:00Z');
    const r = ok(
      await sendCdrs(h, key, 'did-b1', [
        {
          call_id: 'did-call-1',
          attempt: 1,
          is_final_attempt: true,
          start_time: new Date(start).toISOString(),
          answer_time: new Date(start + 2000).toISOString(),
          end_time: new Date(start + 2000 + 120_000).toISOString(),
          duration: 120,
          ingress_trunk_id: vendorTrunk,
          egress_trunk_id: clientTrunk,
          source_ip: '203.0.113.10',
          ani: '15550001111',
          dnis: '4930100005',
          egress_dnis: '4930100005',
          release_cause: 200,
          release_side: 'O',
          pdd_ms: 900,
        },
      ]),
    );
    // client: 2 min at 0.012 = 0.024 revenue; vendor: 2 min at 0.004 = 0.008 cost
    expect(r).toMatchObject({ stored: 1, unpriced: 0, revenue: '0.024000', cost: '0.008000' });
    const cdr = await db()
      .selectFrom('cdrs')
      .selectAll()
      .where('call_id', '=', 'did-call-1')
      .executeTakeFirstOrThrow();
    expect(cdr).toMatchObject({ ingress_client_id: client, egress_client_id: vendor });
    const usage = await db()
      .selectFrom('ledger')
      .select(['client_id', 'side', 'amount'])
      .where('ref', '=', 'did-b1')
      .orderBy('client_id')
      .execute();
    expect(usage.map((u) => [u.client_id, u.side, Number(u.amount)])).toEqual(
      [
        [vendor, 'vendor', 0.008],
        [client, 'customer', -0.024],
      ].sort((a, b) => (a[0] as number) - (b[0] as number)),
    );
  });

  it('charges each month once across restarts and refunds the days after a release', async () => {
    const s = h.built.services;
    const rel = (trx: Parameters<typeof release>[0], ids: number[], by: string, note: string) =>
      release(trx, ids, by, new Date(), note);
    // the second day of the month after next: the assignment month (today's) and the two after it are due
    const today = new Date();
    const next = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 2, 0, 30);
    const first = await runDidCharges(s, next, rel);
    const again = await runDidCharges(s, next, rel);
    expect(first.charged).toBeGreaterThan(0);
    expect(again.charged).toBe(0);
    const monthly = (await ledgerOf(client)).filter((r) => r.ref.startsWith('did-monthly:'));
    // the assignment month (prorated), then the next month and the one after whole
    expect(monthly.length).toBe(3);
    expect(monthly.slice(1).every((r) => Number(r.amount) === -3.1)).toBe(true);
    const vendorMonthly = (await ledgerOf(vendor)).filter((r) => r.ref.startsWith('did-vendor-monthly:'));
    expect(vendorMonthly.length).toBe(1);

    const d = await didOf('4930100005');
    ok(await post('/api/did/repository/release', { did_ids: [d.did_id] }));
    const refunds = (await ledgerOf(client)).filter((r) => r.ref.startsWith('did-refund:'));
    expect(refunds.length).toBe(1);
    expect(Number(refunds[0]!.amount)).toBeGreaterThanOrEqual(0);
    expect((await didOf('4930100005')).state).toBe('released');
    fails(
      await post('/api/did/repository/release', { did_ids: [d.did_id] }),
      170,
      /is released and cannot be released/,
    );
  });
});

describe('client portal', () => {
  it('buys an available number at once, lists and releases its own, and cannot touch others', async () => {
    const avail = ok(
      await get<Paged<Did & { monthly_price: string }>>(
        '/api/did/portal/available?number=49301000&per_page=5',
        clientToken,
      ),
    );
    expect(avail.items[0]!.monthly_price).toBe('3.100000');
    const pick = avail.items.find((x) => x.state === 'unassigned')!;
    expect(ok(await post('/api/did/portal/buy', { did_ids: [pick.did_id] }, clientToken))).toEqual({
      assigned: 1,
      requested: 0,
    });
    const mine = ok(await get<Paged<Did>>('/api/did/portal/my?per_page=999', clientToken));
    expect(mine.items.map((x) => x.number)).toContain(pick.number);
    // another DID in stock is not the client's to release
    const other = await didOf('4930100050');
    fails(
      await post('/api/did/portal/release', { did_ids: [other.did_id] }, clientToken),
      170,
      'User or DID does not exist',
    );
    expect(ok(await post('/api/did/portal/release', { did_ids: [pick.did_id] }, clientToken))).toEqual({
      released: 1,
    });
    // admin-only calls are refused to the client
    fails(await get('/api/did/repository/list', clientToken), 140);
    // its charges only
    const charges = ok(
      await get<Paged<{ carrier_id: number }>>(
        `/api/did/charge/list?carrier_id=${vendor}&per_page=100`,
        clientToken,
      ),
    );
    expect(charges.items.every((c) => c.carrier_id === client)).toBe(true);
  });
});

describe('review fixes: billing per assignment, races, hosts, inbound screening', () => {
  const tx = <T>(fn: (trx: Parameters<typeof release>[0]) => Promise<T>) => db().transaction().execute(fn);
  const chargesOf = async (didId: number, carrier: number) =>
    (
      await db()
        .selectFrom('ledger')
        .select(['ref', 'amount'])
        .where('client_id', '=', carrier)
        .where('kind', '=', 'did_charge')
        .where('ref', 'like', `%:${didId}:%`)
        .orderBy('ledger_id')
        .execute()
    ).map((r) => [r.ref.split(':')[0], Number(r.amount)] as const);
  const sumOf = (rows: (readonly [string | undefined, number])[], kind: string) =>
    Math.round(rows.filter((r) => r[0] === kind).reduce((a, r) => a + r[1], 0) * 1e6) / 1e6;
  let hotel: number;
  beforeAll(async () => {
    hotel = ok(
      await post<{ object_id: number }>('/api/did/client/create', {
        name: 'Hotel',
        main_email: 'hotel@example.com',
        hosts: ['198.51.100.60'],
        billing_rule_id: rule,
        mode: 'postpaid',
        credit_limit: '100',
        buy_needs_approval: true,
        username: 'hotelguest',
        password: 'Hotel#20266',
      }),
    ).object_id;
  });

  it('bills each assignment of a month once: re-assigned to the same client or another, never free, never twice', async () => {
    const d = await didOf('4930100060');
    const at = (iso: string) => new Date(iso);
    // March 2027 has 31 days: 3.10 a month is 0.10 a day (client zone UTC).
    await tx((trx) => assign(trx, [d.did_id], client, null, 'test', at('2027-03-10T12:00:00Z')));
    await tx((trx) => release(trx, [d.did_id], 'test', at('2027-03-15T12:00:00Z')));
    // the same client takes it back that day: the 15th was paid, the new assignment starts the 16th
    await tx((trx) => assign(trx, [d.did_id], client, null, 'test', at('2027-03-15T18:00:00Z')));
    await tx((trx) => release(trx, [d.did_id], 'test', at('2027-03-25T12:00:00Z')));
    const mine = await chargesOf(d.did_id, client);
    // 10th..31st, 16th..31st charged; 16th..31st, 26th..31st back: the 10th to the 25th paid once
    expect(mine.filter((r) => r[0] === 'did-monthly').map((r) => r[1])).toEqual([-2.2, -1.6]);
    expect(mine.filter((r) => r[0] === 'did-refund').map((r) => r[1])).toEqual([1.6, 0.6]);
    expect(sumOf(mine, 'did-monthly') + sumOf(mine, 'did-refund')).toBeCloseTo(-1.6, 6);
    expect(sumOf(mine, 'did-setup')).toBe(-3); // a setup fee per assignment

    // another client the same day: it pays its own days from that day (the 25th is each one's)
    await tx((trx) => assign(trx, [d.did_id], hotel, null, 'test', at('2027-03-25T18:00:00Z')));
    expect((await chargesOf(d.did_id, hotel)).filter((r) => r[0] === 'did-monthly')).toEqual([
      ['did-monthly', -0.7],
    ]);
    // a re-run of the charge job in April charges April once for the current assignment only
    const rel = (trx: Parameters<typeof release>[0], ids: number[], by: string, note: string) =>
      release(trx, ids, by, new Date(), note);
    await runDidCharges(h.built.services, Date.parse('2027-04-02T00:00:00Z'), rel);
    await runDidCharges(h.built.services, Date.parse('2027-04-03T00:00:00Z'), rel);
    expect((await chargesOf(d.did_id, hotel)).filter((r) => r[0] === 'did-monthly')).toEqual([
      ['did-monthly', -0.7],
      ['did-monthly', -3.1],
    ]);
    expect((await chargesOf(d.did_id, client)).length).toBe(mine.length);
  });

  it('a release before the charge job reached the new month still pays the days held in it', async () => {
    const d = await didOf('4930100061');
    await tx((trx) => assign(trx, [d.did_id], client, null, 'test', new Date('2027-03-10T12:00:00Z')));
    // released at 00:30 on April 1st, before any charge run of April
    await tx((trx) => release(trx, [d.did_id], 'test', new Date('2027-04-01T00:30:00Z')));
    const rows = await chargesOf(d.did_id, client);
    expect(rows).toEqual([
      ['did-setup', -1.5],
      ['did-monthly', -2.2],
      ['did-monthly', -3.1],
      ['did-refund', 2.996667], // 29 of 30 April days back: April 1st paid
    ]);
  });

  it('two clients buying the same number at once: one gets it, the other is told it does not exist', async () => {
    const hotelToken = await h.signIn('hotelguest', 'Hotel#20266');
    const numbers = ['4930100080', '4930100081', '4930100082', '4930100083', '4930100084'];
    for (const n of numbers) {
      const d = await didOf(n);
      const [a, b] = await Promise.all([
        post<{ assigned: number; requested: number }>(
          '/api/did/portal/buy',
          { did_ids: [d.did_id] },
          hotelToken,
        ),
        post<{ assigned: number; requested: number }>(
          '/api/did/portal/buy',
          { did_ids: [d.did_id] },
          clientToken,
        ),
      ]);
      const wins = [a, b].filter((r) => r.body.success);
      expect(wins.length).toBe(1);
      const lost = [a, b].find((r) => !r.body.success)!;
      fails(lost, 170, 'User or DID does not exist');
      const after = await didOf(n);
      if (a.body.success) expect(after).toMatchObject({ state: 'reserved', reserved_for: hotel });
      else expect(after).toMatchObject({ state: 'assigned', client_id: client });
    }
  });

  it('a DID vendor IP already on an ingress trunk is refused, as between termination trunks', async () => {
    const other = await carrier(db(), 'Termination Co');
    await trunk(db(), other, 'Termination In', 'ingress', { host: '192.0.2.77' });
    const r = await post('/api/did/vendor/create', { name: 'Dup IP Vendor', hosts: ['192.0.2.77'] });
    const env = fails(r, 160, /192\.0\.2\.77/);
    expect(Object.keys(env.errors ?? {})).toEqual(['hosts.0']);
    // and on update of an existing vendor
    const upd = fails(
      await h.call('PATCH', `/api/did/vendor/${vendor}`, { token: admin, body: { hosts: ['192.0.2.77'] } }),
      160,
    );
    expect(Object.keys(upd.errors ?? {})).toEqual(['hosts.0']);
    // a DID client's trunk is where its numbers ring (egress): its IP may be a termination trunk's
    ok(await h.call('PATCH', `/api/did/client/${hotel}`, { token: admin, body: { hosts: ['192.0.2.77'] } }));
  });

  it('refuses inbound DID calls by the block lists and with the DID limits reasons', async () => {
    const d = await didOf('4930100090');
    ok(await post('/api/did/repository/assign', { did_ids: [d.did_id], client_id: client }));
    await rebuildAfter(h, admin);
    const call = (id: string) =>
      switchRoute(h, { source_ip: '203.0.113.10', ani: '15550002222', dnis: '4930100090', call_id: id }, key);
    expect(ok(await call('scr-1')).result).toBe('route');
    const block = ok(
      await post<{ object_id: number }>('/api/routing/block_list/create', {
        field: 'dnis',
        match: 'exact',
        number: '4930100090',
      }),
    ).object_id;
    await rebuildAfter(h, admin);
    expect(ok(await call('scr-2'))).toMatchObject({ result: 'reject', reject_reason: 'dnis_blocked' });
    ok(await h.call('DELETE', `/api/routing/block_list/${block}`, { token: admin }));

    await db().updateTable('carriers').set({ call_limit: 0 }).where('client_id', '=', vendor).execute();
    await rebuildAfter(h, admin);
    expect(ok(await call('scr-3'))).toMatchObject({
      result: 'reject',
      reject_reason: 'did_vendor_call_limit',
    });
    await db().updateTable('carriers').set({ call_limit: null }).where('client_id', '=', vendor).execute();
    await db().updateTable('carriers').set({ cps_limit: 0 }).where('client_id', '=', client).execute();
    await rebuildAfter(h, admin);
    expect(ok(await call('scr-4'))).toMatchObject({
      result: 'reject',
      reject_reason: 'did_client_cps_limit',
    });
    await db().updateTable('carriers').set({ cps_limit: null }).where('client_id', '=', client).execute();
    await rebuildAfter(h, admin);
    expect(ok(await call('scr-5')).result).toBe('route');
  });

  it('lists DID CDRs for the operator and each portal client its own, and reports DID traffic only', async () => {
    const range = 'start=2026-11-20T00:00:00Z&end=2026-11-21T00:00:00Z';
    type Page = { items: { call_id: string; dnis?: string }[]; total: number };
    const all = ok(await get<Page>(`/api/did/cdr/list?${range}&fields=dnis,ingress_client_name`));
    expect(all.items.map((c) => c.call_id)).toContain('did-call-1');
    expect(ok(await get<Page>(`/api/cdr/list?${range}&traffic=did`)).total).toBe(all.total);
    expect(ok(await get<Page>(`/api/cdr/list?${range}&traffic=termination`)).total).toBe(0);
    ok(await get(`/api/did/cdr/call/did-call-1`));
    ok(await get(`/api/did/cdr/fields`));
    // the client sees the call to its number; another DID client sees nothing
    const mine = ok(await get<Page>(`/api/did/cdr/list?${range}`, clientToken));
    expect(mine.items.map((c) => c.call_id)).toEqual(['did-call-1']);
    const hotelToken = await h.signIn('hotelguest', 'Hotel#20266');
    expect(ok(await get<Page>(`/api/did/cdr/list?${range}`, hotelToken)).total).toBe(0);
    fails(await get(`/api/did/cdr/call/did-call-1`, hotelToken), 150);

    // reports over DID traffic: by number for the operator, the client's own in its portal
    const q = 'from=2026-11-20 00:00&to=2026-11-21 00:00&tz=%2B0000';
    type Report = {
      rows: { code?: string; attempts: number; revenue: string }[];
      totals: { attempts: number };
    };
    const byDid = ok(await get<Report>(`/api/stats/reports/did_report?${q}&group_by=code`));
    const didRow = byDid.rows.find((r) => r.code === '4930100005');
    expect(didRow?.attempts).toBe(1);
    expect(Number(didRow?.revenue)).toBeCloseTo(0.024, 6);
    // a termination-only question of the same report is still DID traffic
    expect(
      ok(await get<Report>(`/api/stats/reports/did_report?${q}&traffic=termination`)).totals.attempts,
    ).toBe(byDid.totals.attempts);
    expect(
      ok(await get<Report>(`/api/stats/reports/origination_report?${q}`, clientToken)).totals.attempts,
    ).toBe(1);
    expect(
      ok(await get<Report>(`/api/stats/reports/origination_report?${q}`, hotelToken)).totals.attempts,
    ).toBe(0);
    fails(await get(`/api/stats/reports/did_report?${q}`, clientToken), 140);
    // the DID CDR list has its own permission: granted alone, it opens the DID calls, not all CDRs
    const didOnly = await makeRestrictedAdmin(h, admin, 'didcdrs', { '/origination/cdrs_list': 'r' });
    expect(ok(await get<Page>(`/api/did/cdr/list?${range}`, didOnly.token)).total).toBe(all.total);
    fails(await get(`/api/cdr/list?${range}`, didOnly.token), 140);
  });

  it("lists the period's recurring DID charges on the client's invoice and bills them", async () => {
    const day = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    const booked = await db()
      .selectFrom('ledger')
      .select('amount')
      .where('client_id', '=', hotel)
      .where('kind', '=', 'did_charge')
      .execute();
    const expected = -booked.reduce((a, r) => a + Number(r.amount), 0);
    expect(expected).toBeGreaterThan(0);
    const { invoice_id } = ok(
      await post<{ invoice_id: number }>('/api/finance/invoice/create', {
        client_id: hotel,
        date_from: day(-1),
        date_to: day(1),
      }),
    );
    type Line = { key: string; calls: number; amount: string };
    const inv = ok(
      await get<{ amount: string; usage_exact: string; lines: { recurring: Line[] } }>(
        `/api/finance/invoice/${invoice_id}`,
      ),
    );
    const listed = inv.lines.recurring.reduce((a, l) => a + Number(l.amount), 0);
    expect(listed).toBeCloseTo(expected, 6);
    expect(inv.lines.recurring.map((l) => l.key)).toContain('DID monthly fees');
    expect(Number(inv.amount)).toBeCloseTo(Number(inv.usage_exact) + expected, 2);
  });

  it('the hourly charge job tells the routing engine only when a DID was suspended, resumed or released', async () => {
    const s = h.built.services;
    const runJob = async () => {
      const { job_id } = ok(await post<{ job_id: number }>('/api/did/charge/run', {}));
      for (let i = 0; i < 1200; i++) {
        const j = await db()
          .selectFrom('jobs')
          .select('status')
          .where('id', '=', job_id)
          .executeTakeFirstOrThrow();
        if (j.status === 'finished' || j.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 50));
      }
      const j = await db()
        .selectFrom('jobs')
        .select(['status', 'result'])
        .where('id', '=', job_id)
        .executeTakeFirstOrThrow();
      expect(j.status).toBe('finished');
      return j.result as { suspended: number; resumed: number; released: number };
    };
    const notify = vi.spyOn(s.configChanged, 'notify');
    try {
      const first = await runJob();
      // whatever the first run changed was told; a second run changes nothing and tells nothing
      expect(notify.mock.calls.length > 0).toBe(first.suspended + first.resumed + first.released > 0);
      notify.mockClear();
      expect(await runJob()).toMatchObject({ suspended: 0, resumed: 0, released: 0 });
      expect(notify).not.toHaveBeenCalled();
    } finally {
      notify.mockRestore();
    }
  });
});
