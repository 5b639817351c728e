import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fails, ok, startHarness, type Harness } from './harness';
import {
  lcrOverVendors,
  settled,
  switchKey,
  termination,
  type Fixture,
  customerCall,
  rebuildAfter,
  switchRoute,
} from './routing-fixtures';

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;
let version = 0;

/** The failover table of a trunk without rules of its own, with no system default rules. */
const BUILT_IN_FAILOVER = {
  '486': { action: 'return', return_code: 486, return_clause: 'Busy Here' },
  '487': { action: 'return', return_code: 487, return_clause: 'Request Terminated' },
  '6xx': { action: 'return', return_code: null, return_clause: null },
  '*': { action: 'next', return_code: null, return_clause: null },
};

beforeAll(async () => {
  h = await startHarness();
  admin = await h.setupAdmin();
  key = await switchKey(h, admin);
  f = await termination(h);
  await lcrOverVendors(h, f);
  await rebuild();
});
afterAll(() => h.close());

async function rebuild() {
  version = await rebuildAfter(h, admin, version);
}

const route = (body: Record<string, unknown>, k: string | null = key) => switchRoute(h, body, k);
const call = (dnis: string, extra: Record<string, unknown> = {}) => route(customerCall(dnis, extra));

describe('POST /api/switch/route', () => {
  it('routes a call: ingress leg with its rate, vendors cheapest first with rate and profit', async () => {
    const a = ok(await call('447700900123'));
    expect(a).toEqual({
      result: 'route',
      reject_code: null,
      reject_reason: null,
      ingress: {
        carrier_id: f.customer,
        trunk_id: f.ingress,
        rate: '0.0500',
        code: '44',
        code_name: 'UK',
        jurisdiction: null,
        rate_table_id: f.customerTable,
      },
      routes: [
        {
          trunk_id: f.vendors[1]!.trunk,
          carrier_id: f.vendors[1]!.carrier,
          hosts: [{ ip: '203.0.113.20', port: 5060 }],
          dnis: '447700900123',
          ani: '15550001111',
          rate: '0.0250',
          code: '44',
          profit: '0.0250',
          ring_timeout_s: 60, // the system settings' defaults
          pdd_timeout_ms: null,
          max_duration_s: 7200,
          failover: BUILT_IN_FAILOVER,
        },
        {
          trunk_id: f.vendors[0]!.trunk,
          carrier_id: f.vendors[0]!.carrier,
          hosts: [{ ip: '203.0.113.10', port: 5060 }],
          dnis: '447700900123',
          ani: '15550001111',
          rate: '0.0300',
          code: '44',
          profit: '0.0200',
          ring_timeout_s: 60,
          pdd_timeout_ms: null,
          max_duration_s: 7200,
          failover: BUILT_IN_FAILOVER,
        },
      ],
      seq: expect.any(Number) as number,
    });
    const us = ok(await call('12125550100'));
    expect(us.routes.map((r) => r.trunk_id)).toEqual([f.vendors[0]!.trunk, f.vendors[1]!.trunk]);
  });

  it('needs a valid switch key: none, wrong or revoked keys are refused', async () => {
    for (const k of [null, 'tsk_wrong', '']) {
      const r = await call('447700900123', {});
      expect(r.body.success).toBe(true);
      const refused = await route({ source_ip: '198.51.100.7', dnis: '44770' }, k);
      fails(refused, 140, 'The switch API key is missing or not valid');
      expect(refused.status).toBe(401);
    }
    const user = await h.call('POST', '/api/switch/route', {
      token: admin,
      body: { source_ip: '198.51.100.7', dnis: '44770' },
    });
    fails(user, 140);
    const other = await switchKey(h, admin, 'second');
    const keys = ok(
      await h.call<{ items: { id: number; name: string; key_prefix: string; revoked_at: string | null }[] }>(
        'GET',
        '/api/routing/switch_key/list',
        { token: admin },
      ),
    );
    const second = keys.items.find((k) => k.name === 'second')!;
    expect(other.startsWith(second.key_prefix)).toBe(true);
    expect(JSON.stringify(keys)).not.toContain(other);
    ok(await route({ source_ip: '198.51.100.7', dnis: '44770' }, other));
    ok(await h.call('PATCH', `/api/routing/switch_key/${second.id}/revoke`, { token: admin }));
    fails(await route({ source_ip: '198.51.100.7', dnis: '44770' }, other), 140);
    ok(await route({ source_ip: '198.51.100.7', dnis: '44770' }, key));
  });

  it('rejects an unknown source IP, a number with no rate, a malformed request', async () => {
    expect(ok(await route({ source_ip: '192.0.2.1', dnis: '447700900123' }))).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'no_ingress_trunk',
      ingress: null,
      routes: [],
    });
    expect(ok(await call('33123456789'))).toMatchObject({
      result: 'reject',
      reject_code: 404,
      reject_reason: 'no_rate',
      ingress: { trunk_id: f.ingress },
    });
    const bad = await route({ source_ip: '198.51.100.7' });
    expect(bad.body.error?.code).toBe(110);
    expect(bad.body.errors?.dnis).toBeDefined();
    const badTime = await call('4477', { time: 'yesterday' });
    expect(badTime.body.errors?.time).toBeDefined();
  });

  it('follows the configuration: inactive carrier, no balance, deactivated vendor -> rerouted', async () => {
    const db = h.built.services.db;
    await db
      .updateTable('carriers')
      .set({ is_active: false })
      .where('client_id', '=', f.vendors[1]!.carrier)
      .execute();
    await rebuild();
    const rerouted = ok(await call('447700900123'));
    expect(rerouted.routes.map((r) => r.trunk_id)).toEqual([f.vendors[0]!.trunk]);
    await db
      .updateTable('carriers')
      .set({ is_active: false })
      .where('client_id', '=', f.vendors[0]!.carrier)
      .execute();
    await rebuild();
    expect(ok(await call('447700900123'))).toMatchObject({
      result: 'reject',
      reject_code: 503,
      reject_reason: 'no_route',
    });
    await db
      .updateTable('carriers')
      .set({ is_active: true })
      .where('client_id', 'in', [f.vendors[0]!.carrier, f.vendors[1]!.carrier])
      .execute();

    await db
      .updateTable('carriers')
      .set({ balance: '-1000', credit_limit: '1000' })
      .where('client_id', '=', f.customer)
      .execute();
    await rebuild();
    expect(ok(await call('447700900123'))).toMatchObject({
      result: 'reject',
      reject_code: 402,
      reject_reason: 'insufficient_balance',
    });
    await db
      .updateTable('carriers')
      .set({ balance: '0', is_active: false })
      .where('client_id', '=', f.customer)
      .execute();
    await rebuild();
    expect(ok(await call('447700900123'))).toMatchObject({
      result: 'reject',
      reject_code: 403,
      reject_reason: 'customer_inactive',
    });
    await db.updateTable('carriers').set({ is_active: true }).where('client_id', '=', f.customer).execute();
    await rebuild();
    expect(ok(await call('447700900123')).result).toBe('route');
  });

  it("hands the switch each route's timers: the trunks' timeout settings, else the system settings, which rebuild when changed", async () => {
    const db = h.built.services.db;
    const timers = async () =>
      ok(await call('447700900123')).routes.map((r) => [
        r.trunk_id,
        r.ring_timeout_s,
        r.pdd_timeout_ms,
        r.max_duration_s,
      ]);
    const [cheap, dear] = [f.vendors[1]!.trunk, f.vendors[0]!.trunk];
    // The timeout settings tab of the vendor trunk and of the customer's ingress trunk (stored as the trunk edit saves it).
    const tab = (trunkId: number, timeouts: Record<string, number | null>) =>
      db
        .updateTable('trunks')
        .set({ timeouts: JSON.stringify(timeouts) })
        .where('trunk_id', '=', trunkId)
        .execute();
    await tab(cheap, { ring_timer: 25, pdd_timeout_ms: 3500, max_duration: 1200, call_timeout: null });
    await tab(f.ingress, { max_duration: 3000, ring_timer: null });
    await rebuild();
    expect(await timers()).toEqual([
      [cheap, 25, 3500, 1200],
      [dear, 60, null, 3000], // the system's 60 s ring; the ingress 3000 s below the system's 7200
    ]);
    // A new system default reaches the routes without any other change: the setting rebuilds the snapshot.
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { default_ring_timeout_s: 90, max_call_duration_s: 2400 },
      }),
    );
    version = (await settled(h, admin, version)).version;
    expect(await timers()).toEqual([
      [cheap, 25, 3500, 1200],
      [dear, 90, null, 2400],
    ]);
    await tab(cheap, {});
    await tab(f.ingress, {});
    ok(
      await h.call('PATCH', '/api/config/system', {
        token: admin,
        body: { default_ring_timeout_s: 60, max_call_duration_s: 7200 },
      }),
    );
    version = (await settled(h, admin, version)).version;
  });

  it('picks up rate changes incrementally: a new value is patched in, a deleted row rebuilds', async () => {
    const db = h.built.services.db;
    await db
      .updateTable('rates')
      .set({ rate: '0.0100' })
      .where('rate_table_id', '=', f.vendors[0]!.table)
      .where('code', '=', '44')
      .execute();
    h.built.services.configChanged.notify();
    const st = await settled(h, admin, version);
    version = st.version;
    expect(st.load_kind).toBe('patch');
    const a = ok(await call('447700900123'));
    expect(a.routes.map((r) => [r.trunk_id, r.rate, r.profit])).toEqual([
      [f.vendors[0]!.trunk, '0.0100', '0.0400'],
      [f.vendors[1]!.trunk, '0.0250', '0.0250'],
    ]);
    await db
      .deleteFrom('rates')
      .where('rate_table_id', '=', f.vendors[0]!.table)
      .where('code', '=', '44')
      .execute();
    h.built.services.configChanged.notify();
    const after = await settled(h, admin, version);
    version = after.version;
    expect(after.load_kind).toBe('incremental');
    expect(ok(await call('447700900123')).routes.map((r) => r.trunk_id)).toEqual([f.vendors[1]!.trunk]);
    // a value change together with another configuration change is built, not patched
    await db
      .updateTable('rates')
      .set({ rate: '0.0260' })
      .where('rate_table_id', '=', f.vendors[1]!.table)
      .where('code', '=', '44')
      .execute();
    await db
      .updateTable('trunks')
      .set({ cps_limit: 50 })
      .where('trunk_id', '=', f.vendors[1]!.trunk)
      .execute();
    h.built.services.configChanged.notify();
    const both = await settled(h, admin, version);
    version = both.version;
    expect(both.load_kind).toBe('incremental');
    expect(ok(await call('447700900123')).routes.map((r) => r.rate)).toEqual(['0.0260']);
  });

  it('follows a rate row that moves to another rate table (a rebuild, not a patch)', async () => {
    const db = h.built.services.db;
    const [a, b] = [f.vendors[0]!, f.vendors[1]!];
    const row = await db
      .insertInto('rates')
      .values({
        rate_table_id: a.table,
        code: '4420',
        rate: '0.0010',
        effective_date: new Date(Date.now() - 86_400_000),
      })
      .returning('rate_id')
      .executeTakeFirstOrThrow();
    h.built.services.configChanged.notify();
    version = (await settled(h, admin, version)).version;
    expect(ok(await call('442071234567')).routes.map((r) => [r.trunk_id, r.code, r.rate])).toEqual([
      [a.trunk, '4420', '0.0010'],
      [b.trunk, '44', '0.0260'],
    ]);
    await db
      .updateTable('rates')
      .set({ rate_table_id: b.table })
      .where('rate_id', '=', row.rate_id)
      .execute();
    h.built.services.configChanged.notify();
    const moved = await settled(h, admin, version);
    version = moved.version;
    expect(moved.load_kind).toBe('incremental');
    // vendor A has no 44 code left (deleted above); vendor B now prices 4420 at 0.0010
    expect(ok(await call('442071234567')).routes.map((r) => [r.trunk_id, r.code, r.rate])).toEqual([
      [b.trunk, '4420', '0.0010'],
    ]);
    await db.deleteFrom('rates').where('rate_id', '=', row.rate_id).execute();
    await rebuild();
  });

  it("holds a trunk's call limit: the switch's calls-up report plus the calls routed since it", async () => {
    const report = (calls: number) =>
      h.call('POST', '/api/switch/calls', {
        headers: { 'x-switch-key': key },
        body: { trunks: [{ trunk_id: f.ingress, calls }] },
      });
    const reportSeq = (calls: number, seq: number) =>
      h.call('POST', '/api/switch/calls', {
        headers: { 'x-switch-key': key },
        body: { trunks: [{ trunk_id: f.ingress, calls }], seq },
      });
    await h.built.services.db
      .updateTable('trunks')
      .set({ call_limit: 2 })
      .where('trunk_id', '=', f.ingress)
      .execute();
    await rebuild();
    try {
      ok(await report(0));
      expect(ok(await call('447700900123')).result).toBe('route');
      expect(ok(await call('447700900124')).result).toBe('route');
      // no report since: the two routed calls count as up
      expect(ok(await call('447700900125'))).toMatchObject({
        result: 'reject',
        reject_code: 486,
        reject_reason: 'trunk_call_limit',
      });
      // the switch reports one call up (the other ended): one more fits, then the limit again
      ok(await report(1));
      expect(ok(await call('447700900126')).result).toBe('route');
      expect(ok(await call('447700900127')).reject_reason).toBe('trunk_call_limit');
      ok(await report(0));
      expect(ok(await call('447700900128')).result).toBe('route');
      // a report names the last answer it counted (seq): calls routed after it stay on top of it
      ok(await report(0));
      const first = ok(await call('447700900129'));
      const second = ok(await call('447700900130'));
      expect(second.seq).toBe(first.seq! + 1);
      ok(await reportSeq(1, first.seq!)); // the switch had counted the first call only
      expect(ok(await call('447700900131')).reject_reason).toBe('trunk_call_limit');
      ok(await reportSeq(1, second.seq!)); // one of the two ended
      expect(ok(await call('447700900132')).result).toBe('route');
      // a refused call has no number
      expect(ok(await call('447700900133')).seq).toBeNull();
    } finally {
      ok(await report(0));
      await h.built.services.db
        .updateTable('trunks')
        .set({ call_limit: null })
        .where('trunk_id', '=', f.ingress)
        .execute();
      await rebuild();
    }
  });

  it('reports the engine status', async () => {
    const st = await settled(h, admin);
    expect(st).toMatchObject({
      ready: true,
      building: false,
      last_error: null,
      counts: { carriers: 3, trunks: 3, rate_tables: 3, routing_plans: 1, dynamic_routes: 1 },
    });
    expect(st.counts.rates).toBe(5);
    expect(st.build_ms).toBeTypeOf('number');
  });
});
