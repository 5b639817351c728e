import type { RerateRun } from '@tandem/contract';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rerateRunners } from '../../src/modules/cdr/rerate-routes';
import { runRerate } from '../../src/modules/cdr/rerate';
import type { Db } from '../../src/db/connection';
import { SUMMARISE_CDRS } from '../../src/db/migrations/0019_cdr_summaries';
import { SUMMARISE_DAILY_DETAIL } from '../../src/db/migrations/0035_cdr_summaries_daily_detail';
import { cdrOf, sendCdrs, cdrHarness } from './cdr-fixtures';
import { denied, fails, invalid, makeRestrictedAdmin, ok, type Harness } from './harness';
import { rebuildAfter, type Fixture } from './routing-fixtures';
import { foldSummaries } from '../../src/modules/stats/summaries';

let h: Harness;
let admin: string;
let key: string;
let f: Fixture;

beforeAll(async () => {
  // no background fold: CDRs stay queued for the summaries until a step folds them (the rerate's two paths)
  ({ h, admin, key, f } = await cdrHarness({ SUMMARY_FOLD_MS: '0' }));
});
afterAll(() => h.close());

const db = () => h.built.services.db;
const runner = () => rerateRunners.get(h.built.services)!;
const num = (v: string) => Number(v);
const balanceOf = async (id: number) =>
  num(
    (
      await db()
        .selectFrom('carriers')
        .select('balance')
        .where('client_id', '=', id)
        .executeTakeFirstOrThrow()
    ).balance,
  );
const ledgerSum = async (id: number) =>
  num(
    (
      await db()
        .selectFrom('ledger')
        .select((e) => e.fn.coalesce(e.fn.sum<string>('amount'), e.val('0')).as('s'))
        .where('client_id', '=', id)
        .executeTakeFirstOrThrow()
    ).s,
  );
const rerateRows = (runId: number) =>
  db()
    .selectFrom('ledger')
    .selectAll()
    .where('kind', '=', 'rerate')
    .where('ref', 'like', `rerate-${runId}-%`)
    .orderBy('ref')
    .orderBy('client_id')
    .execute();
const setRate = async (table: number, code: string, rate: string, name = '') => {
  const r = await db()
    .updateTable('rates')
    .set({ rate })
    .where('rate_table_id', '=', table)
    .where('code', '=', code)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0)
    await db()
      .insertInto('rates')
      .values({
        rate_table_id: table,
        code,
        rate,
        code_name: name,
        country: '',
        effective_date: new Date('2020-01-01T00:00:00Z'),
      } as never)
      .execute();
};

const DAY = { start_time: '2026-11-20T00:00:00Z', end_time: '2026-11-21T00:00:00Z' };

async function waitFor(id: number, states: RerateRun['state'][]): Promise<RerateRun> {
  for (let i = 0; i < 400; i++) {
    const run = ok(await h.call<RerateRun>('GET', `/api/tools/rerate/${id}`, { token: admin }));
    if (states.includes(run.state)) return run;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`rerate run ${id} did not reach ${states.join('/')}`);
}
async function preview(body: Record<string, unknown>): Promise<RerateRun> {
  const id = ok(
    await h.call<{ object_id: number }>('POST', '/api/tools/rerate/create', {
      token: admin,
      body: { ...DAY, ...body },
    }),
  ).object_id;
  return waitFor(id, ['previewed', 'failed']);
}
async function apply(id: number): Promise<RerateRun> {
  ok(await h.call<RerateRun>('PATCH', `/api/tools/rerate/${id}/apply`, { token: admin }));
  return waitFor(id, ['applied', 'failed']);
}

/** The 15-minute and daily detail summaries equal what migrations 0019 and 0035 make of the stored CDRs. */
async function summariesMatchCdrs(): Promise<void> {
  const cols = sql`bucket, ingress_client_id, egress_client_id, ingress_trunk_id, egress_trunk_id, egress_code,
    term_country, release_cause, release_side, non_zero, attempts, answered, non_zero_calls, ner_calls,
    short_calls, unpriced, duration, ingress_billed_time, egress_billed_time, revenue, cost, pdd_sum, pdd_calls`;
  const read = async (d: Db, table: string) =>
    (
      await sql`SELECT ${cols} FROM ${sql.table(table)} WHERE attempts <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`.execute(
        d,
      )
    ).rows;
  await foldSummaries(db());
  const kept = [await read(db(), 'cdr_summaries'), await read(db(), 'cdr_summaries_daily_detail')];
  let remade: unknown[][] = [];
  await db()
    .transaction()
    .execute(async (trx) => {
      await sql`DELETE FROM cdr_summaries`.execute(trx);
      await sql.raw(SUMMARISE_CDRS).execute(trx);
      await sql`DELETE FROM cdr_summaries_daily_detail`.execute(trx);
      await sql.raw(SUMMARISE_DAILY_DETAIL).execute(trx);
      remade = [await read(trx, 'cdr_summaries'), await read(trx, 'cdr_summaries_daily_detail')];
      throw new Error('rollback');
    })
    .catch((e: Error) => {
      if (e.message !== 'rollback') throw e;
    });
  expect(kept[0]!.length).toBeGreaterThan(0);
  expect(kept).toEqual(remade);
}

describe('Tools > Rerate', () => {
  it('previews the difference, applies it once through the ledger, prices unpriced CDRs; again changes nothing', async () => {
    // customer UK 0.05, US 0.02; vendor B UK 0.025, US 0.015; nobody prices 33
    const batch = [
      cdrOf(f, { duration: 60 }),
      cdrOf(f, { duration: 30, dnis: '12125550123' }),
      cdrOf(f, { duration: 60, dnis: '33123456789' }),
    ];
    ok(await sendCdrs(h, key, 'rr-1', batch));
    const vendorB = f.vendors[1]!.carrier;
    expect(await balanceOf(f.customer)).toBe(-0.06);
    expect(await balanceOf(vendorB)).toBe(0.0325);
    const unpriced = await db()
      .selectFrom('cdrs')
      .select('unpriced_reason')
      .where('call_id', '=', batch[2]!.call_id as string)
      .executeTakeFirstOrThrow();
    expect(unpriced.unpriced_reason).toBe('no_ingress_rate');

    await setRate(f.customerTable, '44', '0.0800');
    await setRate(f.customerTable, '33', '0.1000', 'France');
    await setRate(f.vendors[1]!.table, '33', '0.0500', 'France');
    await rebuildAfter(h, admin);

    const run = await preview({});
    expect(run.state).toBe('previewed');
    expect(run.matched).toBe(3);
    expect(run.processed).toBe(3);
    const p = run.preview!;
    expect(p).toMatchObject({ cdrs: 3, changed: 2, priced: 1 });
    expect([p.old_revenue, p.new_revenue, p.old_cost, p.new_cost].map(num)).toEqual([
      0.06, 0.19, 0.0325, 0.0825,
    ]);
    const cust = p.carriers.find((c) => c.client_id === f.customer)!;
    expect(cust).toMatchObject({ name: 'Customer', customer_cdrs: 3, vendor_cdrs: 0 });
    expect(num(cust.difference)).toBe(-0.13);
    expect(num(p.carriers.find((c) => c.client_id === vendorB)!.difference)).toBe(0.05);
    expect(p.sample.map((s) => s.call_id).sort()).toEqual([batch[0]!.call_id, batch[2]!.call_id].sort());
    const priced = p.sample.find((s) => s.call_id === batch[2]!.call_id)!;
    expect(priced).toMatchObject({
      old_unpriced: 'no_ingress_rate',
      new_unpriced: null,
      new_revenue: '0.100000',
    });
    // a preview moves nothing
    expect(await balanceOf(f.customer)).toBe(-0.06);
    expect(await rerateRows(run.run_id)).toEqual([]);

    const done = await apply(run.run_id);
    expect(done.state).toBe('applied');
    expect(done.result).toMatchObject({ cdrs: 3, changed: 2, priced: 1, new_revenue: '0.190000' });
    expect(await balanceOf(f.customer)).toBe(-0.19);
    expect(await balanceOf(vendorB)).toBe(0.0825);
    const rows = await rerateRows(run.run_id);
    expect(
      rows.map((l) => [l.client_id, l.side, num(l.amount), num(l.balance_before), num(l.balance_after)]),
    ).toEqual([
      [f.customer, 'customer', -0.13, -0.06, -0.19],
      [vendorB, 'vendor', 0.05, 0.0325, 0.0825],
    ]);
    expect(rows[0]!.cdr_count).toBe(2);
    for (const id of [f.customer, vendorB]) expect(await ledgerSum(id)).toBe(await balanceOf(id));
    const cdr = await db()
      .selectFrom('cdrs')
      .selectAll()
      .where('call_id', '=', batch[2]!.call_id as string)
      .executeTakeFirstOrThrow();
    expect(cdr).toMatchObject({
      unpriced_reason: null,
      ingress_code: '33',
      ingress_code_name: 'France',
      rerated: 1,
    });
    expect(num(cdr.ingress_client_cost)).toBe(0.1);
    expect(num(cdr.egress_cost)).toBe(0.05);
    expect(num(cdr.profit)).toBe(0.05);
    const us = await db()
      .selectFrom('cdrs')
      .select('rerated')
      .where('call_id', '=', batch[1]!.call_id as string)
      .executeTakeFirstOrThrow();
    expect(us.rerated).toBe(0);
    // the rerate moved each CDR's figures from its old summary key to its new one (the unpriced CDR
    // gained a code and country): the 15-minute and daily detail rows are what the migrations'
    // statements make of the CDRs as they are now
    await summariesMatchCdrs();

    // the same run applied again, and a new run at the same rates: nothing moves
    const again = ok(
      await h.call<RerateRun>('PATCH', `/api/tools/rerate/${run.run_id}/apply`, { token: admin }),
    );
    expect(again.state).toBe('applied');
    const second = await preview({});
    expect(second.preview).toMatchObject({ cdrs: 3, changed: 0, priced: 0, new_revenue: '0.190000' });
    const secondDone = await apply(second.run_id);
    expect(secondDone.result).toMatchObject({ changed: 0 });
    expect(await rerateRows(second.run_id)).toEqual([]);
    expect(await balanceOf(f.customer)).toBe(-0.19);
    expect(await balanceOf(vendorB)).toBe(0.0825);
    // the traffic summaries moved with the CDRs: their totals are the rerated CDRs' sums
    await foldSummaries(h.built.services.db);
    const sums = await sql<{ t: string; revenue: string; cost: string }>`
      SELECT 'cdrs' AS t, SUM(ingress_client_cost + short_call_charge)::text AS revenue, SUM(egress_cost)::text AS cost FROM cdrs
      UNION ALL SELECT 'fine', SUM(revenue)::text, SUM(cost)::text FROM cdr_summaries
      UNION ALL SELECT 'daily', SUM(revenue)::text, SUM(cost)::text FROM cdr_summaries_daily
      UNION ALL SELECT 'detail', SUM(revenue)::text, SUM(cost)::text FROM cdr_summaries_daily_detail`.execute(
      h.built.services.db,
    );
    const [raw, fine, daily, detail] = sums.rows.map((r) => [Number(r.revenue), Number(r.cost)]);
    expect(fine).toEqual(raw);
    expect(daily).toEqual(raw);
    expect(detail).toEqual(raw);

    const list = ok(
      await h.call<{ items: RerateRun[]; total: number }>('GET', '/api/tools/rerate/list', { token: admin }),
    );
    expect(list.items.slice(0, 2).map((r) => r.run_id)).toEqual([second.run_id, run.run_id]);
  });

  it('rates a side with a named rate table, only for the filtered carriers and trunks', async () => {
    const vendorA = f.vendors[0]!;
    const vendorB = f.vendors[1]!;
    ok(await sendCdrs(h, key, 'rr-named', [cdrOf(f, { duration: 120, start: '2026-11-22T08:00:00Z' })]));
    const before = await balanceOf(vendorB.carrier);
    // vendor B's calls at vendor A's table (UK 0.03 instead of 0.025): B is owed 0.01 more for 120 s
    const run = await preview({
      start_time: '2026-11-22T00:00:00Z',
      end_time: '2026-11-23T00:00:00Z',
      vendor_ids: [vendorB.carrier],
      egress_trunk_ids: [vendorB.trunk],
      egress_rate_table_id: vendorA.table,
    });
    expect(run.preview).toMatchObject({ cdrs: 1, changed: 1 });
    const empty = await preview({
      start_time: '2026-11-22T00:00:00Z',
      end_time: '2026-11-23T00:00:00Z',
      vendor_ids: [vendorA.carrier],
    });
    expect(empty.preview).toMatchObject({ cdrs: 0, changed: 0 });
    await apply(run.run_id);
    expect(await balanceOf(vendorB.carrier)).toBeCloseTo(before + 0.01, 6);
    const cdr = await db()
      .selectFrom('cdrs')
      .select(['egress_rate_table_id', 'egress_client_id', 'egress_cost'])
      .where('batch_id', '=', 'rr-named')
      .executeTakeFirstOrThrow();
    expect(cdr).toMatchObject({ egress_rate_table_id: vendorA.table, egress_client_id: vendorB.carrier });
    expect(num(cdr.egress_cost)).toBe(0.06);
    expect(await ledgerSum(vendorB.carrier)).toBe(await balanceOf(vendorB.carrier));
  });

  it('a crash after a chunk resumes from the next chunk, and a second worker on the same run moves nothing twice', async () => {
    const start = '2026-11-23T09:00:00Z';
    const cdrs = Array.from({ length: 7 }, (_, i) =>
      cdrOf(f, { duration: 60, start: new Date(Date.parse(start) + i * 1000).toISOString() }),
    );
    ok(await sendCdrs(h, key, 'rr-chunks', cdrs));
    await setRate(f.customerTable, '44', '0.0900');
    await rebuildAfter(h, admin);
    const before = await balanceOf(f.customer);
    const range = { start_time: '2026-11-23T00:00:00Z', end_time: '2026-11-24T00:00:00Z' };
    const run = await preview(range);
    expect(run.preview).toMatchObject({ cdrs: 7, changed: 7 });

    // chunks of 3 read in pages of 2: a chunk is more than one query (readChunk)
    const deps = { ...runner().deps, chunk: 3, readPage: 2 };
    await db()
      .updateTable('rerate_runs')
      .set({ state: 'applying', applied_by: 'admin', apply_started_at: new Date() })
      .where('run_id', '=', run.run_id)
      .execute();
    // the process dies right after the first chunk committed
    await runRerate(deps, run.run_id, () => {
      throw new Error('killed');
    });
    const crashed = await waitFor(run.run_id, ['failed']);
    expect(crashed.processed).toBe(3);
    expect((await rerateRows(run.run_id)).map((l) => l.ref)).toEqual([`rerate-${run.run_id}-0`]);
    expect(await balanceOf(f.customer)).toBeCloseTo(before - 3 * 0.01, 6);

    // restarted: two workers pick the run up at once
    await db()
      .updateTable('rerate_runs')
      .set({ state: 'applying' })
      .where('run_id', '=', run.run_id)
      .execute();
    await Promise.all([runRerate(deps, run.run_id), runRerate(deps, run.run_id)]);
    const done = await waitFor(run.run_id, ['applied']);
    expect(done.result).toMatchObject({ cdrs: 7, changed: 7 });
    const rows = await rerateRows(run.run_id);
    expect(rows.map((l) => l.ref)).toEqual([0, 1, 2].map((c) => `rerate-${run.run_id}-${c}`));
    expect(rows.map((l) => l.cdr_count)).toEqual([3, 3, 1]);
    // 7 calls of 60 s from 0.08 to 0.09: exactly 0.07 more, once
    expect(await balanceOf(f.customer)).toBeCloseTo(before - 0.07, 6);
    expect(await ledgerSum(f.customer)).toBe(await balanceOf(f.customer));
    const rerated = await db()
      .selectFrom('cdrs')
      .select('rerated')
      .where('batch_id', '=', 'rr-chunks')
      .execute();
    expect(rerated.every((r) => r.rerated === 1)).toBe(true);
    // two chunks in flight at a time (apply's pipeline), each committed in order: the summaries moved once
    await summariesMatchCdrs();
  });

  it('moves the summaries once whether the fold summarised the rerated CDRs before or does it after (from the rewritten rows)', async () => {
    const at = (hour: number, i: number) => new Date(Date.UTC(2026, 10, 24, hour, 0, i)).toISOString();
    ok(
      await sendCdrs(
        h,
        key,
        'rr-folded',
        [0, 1, 2].map((i) => cdrOf(f, { duration: 60, start: at(8, i) })),
      ),
    );
    await foldSummaries(db()); // in the summaries before the rerate: it moves them by its deltas
    ok(
      await sendCdrs(
        h,
        key,
        'rr-queued',
        [0, 1, 2].map((i) => cdrOf(f, { duration: 60, start: at(9, i) })),
      ),
    );
    const queue = await db().selectFrom('cdr_summary_queue').select('batch_id').execute();
    expect(queue.map((q) => q.batch_id)).toEqual(['rr-queued']); // still to fold when the rerate runs
    await setRate(f.customerTable, '44', '0.1100');
    await rebuildAfter(h, admin);
    const run = await preview({ start_time: '2026-11-24T00:00:00Z', end_time: '2026-11-25T00:00:00Z' });
    expect(run.preview).toMatchObject({ cdrs: 6, changed: 6 });
    await apply(run.run_id);
    await summariesMatchCdrs();
  });

  it('refuses a bad filter naming the field, an apply before the preview, and callers without the permission', async () => {
    const runs = async () => (await db().selectFrom('rerate_runs').select('run_id').execute()).length;
    const n = await runs();
    invalid(
      await h.call('POST', '/api/tools/rerate/create', {
        token: admin,
        body: { start_time: '2026-11-21T00:00:00Z', end_time: '2026-11-20T00:00:00Z' },
      }),
      'end_time',
    );
    invalid(
      await h.call('POST', '/api/tools/rerate/create', {
        token: admin,
        body: { ...DAY, ingress_rate_table_id: 999999 },
      }),
      'ingress_rate_table_id',
      /999999/,
    );
    invalid(
      await h.call('POST', '/api/tools/rerate/create', { token: admin, body: { end_time: DAY.end_time } }),
      'start_time',
    );
    expect(await runs()).toBe(n);

    const reader = await makeRestrictedAdmin(h, admin, 'rerate_reader', { '/tools/rerate': 'r' });
    denied(await h.call('POST', '/api/tools/rerate/create', { token: reader.token, body: DAY }));
    ok(await h.call('GET', '/api/tools/rerate/list', { token: reader.token }));
    const writer = await makeRestrictedAdmin(h, admin, 'rerate_writer', { '/tools/rerate': 'rw' });
    const id = ok(
      await h.call<{ object_id: number }>('POST', '/api/tools/rerate/create', {
        token: writer.token,
        body: DAY,
      }),
    ).object_id;
    await waitFor(id, ['previewed']);
    // applying moves money: the execute right
    denied(await h.call('PATCH', `/api/tools/rerate/${id}/apply`, { token: writer.token }));
    const pending = await db()
      .insertInto('rerate_runs')
      .values({ created_by: 'admin', filter: JSON.stringify(DAY) })
      .returning('run_id')
      .executeTakeFirstOrThrow();
    fails(
      await h.call('PATCH', `/api/tools/rerate/${pending.run_id}/apply`, { token: admin }),
      170,
      /preview/,
    );
    const stranger = await makeRestrictedAdmin(h, admin, 'rerate_stranger');
    denied(await h.call('GET', '/api/tools/rerate/list', { token: stranger.token }));
  });
});
