import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fails, ok, type Harness } from './harness';
import { cdrOf, sendCdrs, cdrHarness } from './cdr-fixtures';
import {
  customerCall,
  lcrOverVendors,
  rebuildAfter,
  switchRoute,
  termination,
  type Fixture,
} from './routing-fixtures';

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;

beforeAll(async () => {
  ({ h, admin, key, f } = await cdrHarness());
});
afterAll(() => h.close());

const db = () => h.built.services.db;
const balanceOf = async (id: number) =>
  (await db().selectFrom('carriers').select('balance').where('client_id', '=', id).executeTakeFirstOrThrow())
    .balance;
const ledgerSum = async (id: number) =>
  (
    await db()
      .selectFrom('ledger')
      .select((e) => e.fn.coalesce(e.fn.sum<string>('amount'), e.val('0')).as('s'))
      .where('client_id', '=', id)
      .executeTakeFirstOrThrow()
  ).s;
const cdrCount = async () =>
  Number(
    (
      await db()
        .selectFrom('cdrs')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const num = (v: string) => Number(v);

describe('POST /api/switch/cdr', () => {
  it('stores a batch, rates both legs and moves both balances once, each with a ledger row', async () => {
    // customer UK 0.0500/min (1/1 billing), vendor B (index 1) 0.0250/min
    const batch = [
      cdrOf(f, { duration: 60 }),
      cdrOf(f, { duration: 0 }),
      cdrOf(f, { duration: 30, dnis: '12125550123' }),
    ];
    const r = ok(await sendCdrs(h, key, 'b-1', batch));
    expect(r).toMatchObject({
      batch_id: 'b-1',
      duplicate: false,
      received: 3,
      stored: 3,
      duplicates: 0,
      unpriced: 0,
    });
    // revenue 0.05 (60 s UK) + 0.01 (30 s US at 0.02) = 0.06; cost 0.025 + 0.0075 (30 s at 0.0150)
    expect(r.revenue).toBe('0.060000');
    expect(r.cost).toBe('0.032500');

    const row = await db()
      .selectFrom('cdrs')
      .selectAll()
      .where('call_id', '=', batch[0]!.call_id as string)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      ingress_client_id: f.customer,
      egress_client_id: f.vendors[1]!.carrier,
      ingress_rate_table_id: f.customerTable,
      ingress_code: '44',
      ingress_code_name: 'UK',
      ingress_billed_time: 60,
      egress_rate_table_id: f.vendors[1]!.table,
      egress_code: '44',
      call_duration: 60,
      unpriced_reason: null,
    });
    expect(num(row.ingress_rate!)).toBe(0.05);
    expect(num(row.ingress_client_cost)).toBe(0.05);
    expect(num(row.egress_cost)).toBe(0.025);
    expect(num(row.profit)).toBe(0.025);

    expect(num(await balanceOf(f.customer))).toBe(-0.06);
    expect(num(await balanceOf(f.vendors[1]!.carrier))).toBe(0.0325);
    const ledger = await db()
      .selectFrom('ledger')
      .selectAll()
      .where('ref', '=', 'b-1')
      .orderBy('client_id')
      .execute();
    expect(
      ledger.map((l) => [
        l.client_id,
        l.kind,
        l.side,
        num(l.amount),
        num(l.balance_before),
        num(l.balance_after),
      ]),
    ).toEqual([
      [f.customer, 'usage', 'customer', -0.06, 0, -0.06],
      [f.vendors[1]!.carrier, 'usage', 'vendor', 0.0325, 0, 0.0325],
    ]);
    expect(await ledgerSum(f.customer)).toBe(await balanceOf(f.customer));
  });

  it('answers a batch sent again as a duplicate and changes nothing', async () => {
    const before = [await cdrCount(), await balanceOf(f.customer)];
    const r = ok(await sendCdrs(h, key, 'b-1', [cdrOf(f, { duration: 600 })]));
    expect(r).toMatchObject({ batch_id: 'b-1', duplicate: true, received: 3, stored: 3 });
    expect([await cdrCount(), await balanceOf(f.customer)]).toEqual(before);
  });

  it('skips and counts a CDR whose call and attempt were stored before, in another batch or twice in one', async () => {
    const once = cdrOf(f, { duration: 60, callId: 'same-call' });
    ok(await sendCdrs(h, key, 'b-2', [once]));
    const balance = await balanceOf(f.customer);
    const fresh = cdrOf(f, { duration: 60 });
    const r = ok(await sendCdrs(h, key, 'b-3', [once, fresh, fresh]));
    expect(r).toMatchObject({ stored: 1, duplicates: 2, revenue: '0.050000' });
    expect(num(await balanceOf(f.customer))).toBeCloseTo(num(balance) - 0.05, 6);
    expect(await ledgerSum(f.customer)).toBe(await balanceOf(f.customer));
  });

  it('refuses a malformed batch whole, naming the CDR and field, and stores nothing', async () => {
    const before = [await cdrCount(), await balanceOf(f.customer)];
    const bad = cdrOf(f);
    bad.end_time = '2026-11-20T09:00:00Z';
    const r = fails(await sendCdrs(h, key, 'b-bad', [cdrOf(f), bad]), 110);
    expect(Object.keys(r.errors ?? {})).toEqual(['cdrs.1.end_time']);
    const missing = cdrOf(f);
    delete missing.dnis;
    const wrongType = cdrOf(f);
    wrongType.duration = '60';
    const r2 = fails(await sendCdrs(h, key, 'b-bad', [missing, wrongType]), 110);
    expect(Object.keys(r2.errors ?? {}).sort()).toEqual(['cdrs.0.dnis', 'cdrs.1.duration']);
    fails(await sendCdrs(h, key, 'b-bad', []), 110);
    expect([await cdrCount(), await balanceOf(f.customer)]).toEqual(before);
    expect(
      await db().selectFrom('cdr_batches').select('batch_id').where('batch_id', '=', 'b-bad').execute(),
    ).toEqual([]);
  });

  it('checks a long batch slice by slice with the same errors, item indexes as sent (issue 16)', async () => {
    const before = [await cdrCount(), await balanceOf(f.customer)];
    // 2,500 CDRs: three slices of SLICE_ITEMS (1,000, event-loop.ts); errors in the first and the last slice.
    const many = Array.from({ length: 2500 }, () => cdrOf(f, { duration: 0 }));
    many[3]!.end_time = '2026-11-20T09:00:00Z';
    delete many[2345]!.dnis;
    many[1000]!.duration = '1';
    const r = fails(await sendCdrs(h, key, 'b-long-bad', many), 110);
    expect(Object.keys(r.errors ?? {}).sort()).toEqual([
      'cdrs.1000.duration',
      'cdrs.2345.dnis',
      'cdrs.3.end_time',
    ]);
    expect(r.errors?.['cdrs.2345.dnis']).toMatch(/cdrs\.2345\.dnis/);
    // A control character in a later slice: named with its index in the whole batch.
    const nul = Array.from({ length: 2500 }, () => cdrOf(f, { duration: 0 }));
    nul[1500]!.ani = '1555\u00001234';
    expect(Object.keys(fails(await sendCdrs(h, key, 'b-long-nul', nul), 110).errors ?? {})).toEqual([
      'cdrs.1500.ani',
    ]);
    // Over the batch maximum: the length rule, however long.
    const tooMany = Array.from({ length: 10_001 }, () => cdrOf(f, { duration: 0 }));
    const r2 = fails(await sendCdrs(h, key, 'b-too-many', tooMany), 110);
    expect(Object.keys(r2.errors ?? {})).toEqual(['cdrs']);
    expect([await cdrCount(), await balanceOf(f.customer)]).toEqual(before);
    // Valid: every CDR stored, in order.
    const good = Array.from({ length: 2500 }, () => cdrOf(f, { duration: 0 }));
    expect(ok(await sendCdrs(h, key, 'b-long', good))).toMatchObject({ received: 2500, stored: 2500 });
    expect(await cdrCount()).toBe(Number(before[0]) + 2500);
  });

  it('stores a CDR it cannot price with the reason, and bills what it can', async () => {
    const noRate = cdrOf(f, { dnis: '33123456789' });
    const unknownTrunk = { ...cdrOf(f), ingress_trunk_id: 999999 };
    const r = ok(await sendCdrs(h, key, 'b-unpriced', [noRate, unknownTrunk]));
    expect(r).toMatchObject({ stored: 2, unpriced: 2, revenue: '0.000000' });
    const rows = await db()
      .selectFrom('cdrs')
      .select(['call_id', 'unpriced_reason'])
      .where('batch_id', '=', 'b-unpriced')
      .orderBy('unpriced_reason')
      .execute();
    expect(rows.map((x) => x.unpriced_reason)).toEqual(['no_ingress_rate', 'unknown_ingress_trunk']);
  });

  it('needs the switch key', async () => {
    const r = await h.call('POST', '/api/switch/cdr', { body: { batch_id: 'x', cdrs: [cdrOf(f)] } });
    expect(r.body.success).toBe(false);
    expect(r.status).toBe(401);
  });
});

describe('live credit', () => {
  let prepaid: Fixture;
  beforeAll(async () => {
    prepaid = await termination(h, '-pre');
    await db()
      .updateTable('carriers')
      .set({ mode: 'prepaid', credit_limit: '0', allowed_credit: '0' })
      .where('client_id', '=', prepaid.customer)
      .execute();
    // one minute of UK at 0.0500: 0.05 of credit, as a ledger adjustment
    await db()
      .transaction()
      .execute(async (trx) => {
        const { moveBalances } = await import('../../src/modules/cdr/ledger');
        await moveBalances(trx, [
          { client_id: prepaid.customer, kind: 'adjustment', ref: 'test-topup', amount: 50_000n },
        ]);
      });
    await lcrOverVendors(h, prepaid, '-pre');
    await rebuildAfter(h, admin);
  });
  const prepaidCall = (extra: Record<string, unknown> = {}) =>
    switchRoute(h, customerCall('447700900123', { source_ip: '198.51.101.7', ...extra }), key);

  let heldCall = 'conc-0';
  it('30 concurrent calls against one minute of credit: the granted minutes never exceed it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => prepaidCall({ call_id: `conc-${i}` })),
    );
    const routed = answers.map((a) => a.body.payload).filter((p) => p?.result === 'route');
    const granted = routed.reduce((s, p) => s + (p!.routes[0]!.max_duration_s ?? 1e9), 0);
    expect(routed.length).toBe(1);
    heldCall = `conc-${answers.findIndex((a) => a.body.payload?.result === 'route')}`;
    expect(granted).toBeLessThanOrEqual(60);
    const refused = answers.map((a) => a.body.payload).filter((p) => p?.result === 'reject');
    expect(refused.every((p) => p!.reject_reason === 'insufficient_balance')).toBe(true);
  });

  it('a re-route of the same call is not refused by its own hold; another call still is', async () => {
    const again = ok(await prepaidCall({ call_id: heldCall }));
    expect(again.result).toBe('route');
    expect(again.routes[0]!.max_duration_s).toBeLessThanOrEqual(60);
    const other = ok(await prepaidCall({ call_id: 'other' }));
    expect(other.reject_reason).toBe('insufficient_balance');
  });

  it("a call's final CDR releases its hold and its cost reaches routing at once: the customer runs out", async () => {
    // the held call ends after 60 s: its CDR spends the whole credit
    const cdr = {
      ...cdrOf(prepaid, { duration: 60, callId: heldCall }),
      source_ip: '198.51.101.7',
    };
    const t0 = Date.now();
    ok(await sendCdrs(h, key, 'b-prepaid', [cdr]));
    const a = ok(await prepaidCall({ call_id: 'after' }));
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(a.result).toBe('reject');
    expect(a.reject_reason).toBe('insufficient_balance');
    expect(num(await balanceOf(prepaid.customer))).toBe(0);
  });
});
